package io.wanshuffle.tools.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.CapturedEvents;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.util.JsonProtocol;

/**
 * Reads applications for the report: from the plugin's capture folders ({@code
 * spark.wanshuffle.capture.dir}, docs/capture.md) or from Spark event logs ({@code
 * spark.eventLog.dir}), whose {@code WanShuffleStageCaptured} and {@code WanShuffleStepCompleted}
 * events Spark's own {@link JsonProtocol} reads back. A file that cannot be read (an older capture
 * format, a truncated or corrupt file, a compressed event log) becomes a note naming it, and the
 * rest is still read.
 */
public final class ApplicationCaptures {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern STAGE_FILE = Pattern.compile("stage-\\d+\\.\\d+\\.kryo");
  private static final String STAGE_EVENT = WanShuffleStageCaptured.class.getName();
  private static final String STEP_EVENT = WanShuffleStepCompleted.class.getName();

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
    return new ApplicationCapture(id, "", dir.toString(), stages, true, notes);
  }

  /**
   * Reads Spark event logs: one application's log (a file, or the folder of a rolling event log,
   * {@code eventlog_v2_*}), or a folder of them (Spark's {@code spark.eventLog.dir}).
   *
   * @param path the file or folder
   * @return the applications found, in file-name order
   * @throws IOException if a file cannot be read
   * @throws IllegalArgumentException naming the path when it is missing or holds no event log
   */
  public static List<ApplicationCapture> fromEventLog(Path path) throws IOException {
    if (Files.isRegularFile(path)) {
      return List.of(readLog(path, List.of(path)));
    }
    if (!Files.isDirectory(path)) {
      throw new IllegalArgumentException(path + ": no such file or folder");
    }
    if (path.getFileName().toString().startsWith("eventlog_v2_")) {
      return List.of(readLog(path, rollingFiles(path)));
    }
    List<ApplicationCapture> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(path)) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (Files.isDirectory(p) && name.startsWith("eventlog_v2_")) {
          out.add(readLog(p, rollingFiles(p)));
        } else if (Files.isRegularFile(p) && !name.startsWith(".") && !name.endsWith(".crc")) {
          out.add(readLog(p, List.of(p)));
        }
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(path + ": no event log here");
    }
    return out;
  }

  private static List<Path> rollingFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.getFileName().toString().startsWith("events_"))
          .sorted(
              Comparator.comparingLong(
                  f -> Long.parseLong(f.getFileName().toString().split("_")[1])))
          .toList();
    }
  }

  private static final List<String> COMPRESSED = List.of(".lz4", ".lzf", ".snappy", ".zstd");

  private static ApplicationCapture readLog(Path source, List<Path> files) throws IOException {
    CapturedEvents events = new CapturedEvents();
    List<String> notes = new ArrayList<>();
    String[] app = {"", ""};
    for (int i = 0; i < files.size(); i++) {
      Path f = files.get(i);
      String name = f.getFileName().toString();
      if (COMPRESSED.stream().anyMatch(name::endsWith)) {
        notes.add(
            f
                + ": a compressed event log, not read (write it with"
                + " spark.eventLog.compress=false)");
        continue;
      }
      readLines(f, i == files.size() - 1, events, notes, app);
    }
    if (events.stageCount() == 0) {
      notes.add(
          source
              + ": no wan-shuffle stage events (the plugin was off, no stage read across sites, or"
              + " spark.wanshuffle.capture.events was false)");
    } else if (events.anyWithoutLinks()) {
      notes.add(
          source
              + ": stage events of an older wan-shuffle: no links, sites, racks, throughput over"
              + " time or plan for those stages");
    }
    return new ApplicationCapture(
        app[0].isEmpty() && events.stageCount() > 0 ? events.stages().get(0).appId() : app[0],
        app[1],
        source.toString(),
        events.stages(),
        false,
        notes);
  }

  private static void readLines(
      Path f, boolean last, CapturedEvents events, List<String> notes, String[] app)
      throws IOException {
    try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
      String line = in.readLine();
      int number = 0;
      while (line != null) {
        number++;
        String next = in.readLine();
        JsonNode e;
        try {
          e = JSON.readTree(line);
        } catch (JsonProcessingException ex) {
          if (next == null && last) {
            notes.add(
                f
                    + ": line "
                    + number
                    + " is cut short (the application did not end cleanly); read up to line "
                    + (number - 1));
          } else {
            notes.add(f + ": line " + number + " is not a Spark event (left out)");
          }
          line = next;
          continue;
        }
        String kind = e.path("Event").asText();
        if (kind.equals("SparkListenerApplicationStart")) {
          app[0] = e.path("App ID").asText("");
          app[1] = e.path("App Name").asText("");
        } else if (kind.equals(STAGE_EVENT) || kind.equals(STEP_EVENT)) {
          try {
            SparkListenerEvent ev = JsonProtocol.sparkEventFromJson(line);
            if (ev instanceof WanShuffleStageCaptured s) {
              events.add(s);
            } else if (ev instanceof WanShuffleStepCompleted s) {
              events.add(s);
            }
          } catch (RuntimeException ex) {
            notes.add(f + ": line " + number + ": unreadable " + kind + " (" + ex + ")");
          }
        }
        line = next;
      }
    }
  }
}
