package io.wanshuffle.tools.report;

import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.LinkChange;
import io.wanshuffle.spark.capture.StageCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads applications for the report from the plugin's capture folders ({@code
 * spark.wanshuffle.capture.dir}, docs/capture.md; Spark event logs: {@link EventLogs}): the stage
 * captures and the link log ({@code link-windows.csv}). A file that cannot be read (an older
 * capture format, a truncated or corrupt file, a malformed row of the link log) becomes a note
 * naming it, and the rest is still read.
 */
public final class ApplicationCaptures {
  private static final Pattern STAGE_FILE = Pattern.compile("stage-\\d+\\.\\d+\\.kryo");

  private ApplicationCaptures() {}

  /**
   * Reads a capture folder: one application's folder ({@code <capture.dir>/<app id>}, holding
   * {@code stage-*.kryo}) or the capture folder itself, one application per sub-folder.
   *
   * @param dir the folder
   * @return the applications found, by folder name
   * @throws IOException if the folder cannot be listed
   * @throws IllegalArgumentException naming the folder when it holds no application's capture
   */
  public static List<ApplicationCapture> fromCaptureDir(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(dir + ": not a folder");
    }
    if (holdsStages(dir)) {
      return List.of(readApp(dir));
    }
    List<ApplicationCapture> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path app : s.filter(Files::isDirectory).sorted().toList()) {
        if (holdsStages(app) || Files.exists(app.resolve(CaptureFiles.FLOW_LOG))) {
          out.add(readApp(app));
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          dir
              + ": no wan-shuffle capture here (an application's folder holds stage-*.kryo files;"
              + " the capture folder holds one such folder per application)");
    }
    return out;
  }

  private static boolean holdsStages(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(f -> STAGE_FILE.matcher(f.getFileName().toString()).matches());
    }
  }

  private static ApplicationCapture readApp(Path dir) throws IOException {
    List<StageCapture> stages = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files =
          s.filter(f -> STAGE_FILE.matcher(f.getFileName().toString()).matches()).sorted().toList();
    }
    for (Path f : files) {
      try {
        CaptureFiles.VersionedStage v = CaptureFiles.readVersionedStage(f);
        stages.add(v.capture());
        if (v.version() < CaptureFiles.VERSION) {
          notes.add(
              f
                  + ": capture format version "
                  + v.version()
                  + " (an older wan-shuffle): no links, sites, racks or throughput over time for"
                  + " this stage");
        }
      } catch (IllegalArgumentException | IOException e) {
        notes.add(e.getMessage() + " (left out)");
      }
    }
    if (files.isEmpty()) {
      notes.add(dir + ": no stage-*.kryo (no gated stage completed, or the capture was cut short)");
    }
    stages.sort(
        Comparator.comparingInt(StageCapture::stageId)
            .thenComparingInt(StageCapture::stageAttempt));
    String id = stages.isEmpty() ? dir.getFileName().toString() : stages.get(0).appId();
    Path linkLog = dir.resolve(CaptureFiles.LINK_LOG);
    List<LinkChange> changes = List.of();
    boolean recorded = false;
    if (Files.exists(linkLog)) {
      try {
        changes = CaptureFiles.readLinkLog(linkLog);
        recorded = true;
      } catch (IllegalArgumentException | IOException e) {
        notes.add(e.getMessage() + " (the links' windows and shares are left out)");
      }
    }
    return new ApplicationCapture(id, "", dir.toString(), stages, true, notes, changes, recorded);
  }
}
