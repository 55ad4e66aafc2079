package io.wanshuffle.spark.capture;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The stages of one application as its {@link WanShuffleStepCompleted} and {@link
 * WanShuffleStageCaptured} events tell them (event log, History Server, live listener bus): the
 * steps collected by id, each stage's capture with the steps it names ({@link
 * WanShuffleStageCaptured#toCapture}); and its links' windows and shares over time as its {@link
 * WanShuffleLinkChanged} events tell them. Not thread-safe.
 */
public final class CapturedEvents {
  private final Map<Long, StepCapture> steps = new HashMap<>();
  private final List<WanShuffleStageCaptured> stages = new ArrayList<>();
  private final List<LinkChange> linkChanges = new ArrayList<>();

  /**
   * @param e a step's event
   * @return this
   */
  public CapturedEvents add(WanShuffleStepCompleted e) {
    steps.put(e.stepId(), e.toCapture());
    return this;
  }

  /**
   * @param e a stage's event
   * @return this
   */
  public CapturedEvents add(WanShuffleStageCaptured e) {
    stages.add(e);
    return this;
  }

  /**
   * @param e a link's window or share that moved
   * @return this
   */
  public CapturedEvents add(WanShuffleLinkChanged e) {
    if (e.change() != null) {
      linkChanges.add(e.change());
    }
    return this;
  }

  /**
   * @return the links' changes in time order (epoch ms; changes of one instant in the order added)
   */
  public List<LinkChange> linkChanges() {
    List<LinkChange> out = new ArrayList<>(linkChanges);
    out.sort(Comparator.comparingLong(LinkChange::timeMs));
    return out;
  }

  /**
   * @return how many stage events were added
   */
  public int stageCount() {
    return stages.size();
  }

  /**
   * @return true when some stage event lacks the links (posted by an older version)
   */
  public boolean anyWithoutLinks() {
    return stages.stream().anyMatch(s -> !s.hasLinks());
  }

  /**
   * @return every stage's capture, by stage id then attempt (a stage posted twice: the last one)
   */
  public List<StageCapture> stages() {
    Map<String, StageCapture> byStage = new HashMap<>();
    for (WanShuffleStageCaptured e : stages) {
      byStage.put(e.stageId() + "." + e.stageAttempt(), e.toCapture(steps));
    }
    List<StageCapture> out = new ArrayList<>(byStage.values());
    out.sort(
        Comparator.comparingInt(StageCapture::stageId)
            .thenComparingInt(StageCapture::stageAttempt));
    return out;
  }
}
