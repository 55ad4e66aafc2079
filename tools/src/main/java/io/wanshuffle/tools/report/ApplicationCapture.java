package io.wanshuffle.tools.report;

import io.wanshuffle.spark.capture.LinkChange;
import io.wanshuffle.spark.capture.StageCapture;
import java.util.List;

/**
 * What one application's capture or event log tells about its gated stages, as {@code ./wan-shuffle
 * report} renders it ({@link OperatorReport}).
 *
 * @param appId Spark's application id ("" when the input does not say)
 * @param appName the application's name ("" when the input does not say)
 * @param source the file or folder it was read from, for the page
 * @param stages the gated stages, by stage id then attempt
 * @param flowsRecorded true when the stages carry their flows (a capture folder); an event log has
 *     the steps but not the flows
 * @param notes what could not be read or is missing, each naming its file (an older capture format,
 *     a truncated event log, an unreadable file); the rest still renders
 * @param linkChanges the shared links' windows and this application's shares of them as they moved,
 *     in time order (the capture's {@code link-windows.csv} or its link events)
 * @param linkChangesRecorded true when the input records them (then no change means none moved);
 *     false when it cannot say (an older capture, stages given in memory)
 */
public record ApplicationCapture(
    String appId,
    String appName,
    String source,
    List<StageCapture> stages,
    boolean flowsRecorded,
    List<String> notes,
    List<LinkChange> linkChanges,
    boolean linkChangesRecorded) {

  /** Copies the lists. */
  public ApplicationCapture {
    stages = List.copyOf(stages);
    notes = List.copyOf(notes);
    linkChanges = List.copyOf(linkChanges);
  }

  /**
   * An application from stage captures already in memory (the demo's and run-app's runs), without
   * its links' windows and shares.
   *
   * @param stages the stage captures (their application id names the application)
   * @param source where they came from, for the page
   * @return the application
   */
  public static ApplicationCapture of(List<StageCapture> stages, String source) {
    String id = stages.isEmpty() ? "" : stages.get(0).appId();
    return new ApplicationCapture(id, "", source, stages, true, List.of(), List.of(), false);
  }
}
