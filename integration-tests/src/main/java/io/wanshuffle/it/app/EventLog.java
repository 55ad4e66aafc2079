package io.wanshuffle.it.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An application's run as its Spark event log records it ({@code spark.eventLog.enabled},
 * uncompressed, not rolled): one JSON object per line, written by Spark's listener bus (its {@code
 * JsonProtocol}). Read here: the application start and end, each stage attempt's submission,
 * completion and failure, and its successful tasks' shuffle read and write metrics. Lines of other
 * events are skipped; a line that is not JSON fails the read (a log truncated by a crash may end in
 * one: then the figures of the lines before it are what is known, see {@link #read}).
 *
 * @param appId Spark's application id (null if the log has no application start)
 * @param appName the application's name
 * @param startMs application start, epoch ms (0 if missing)
 * @param endMs application end, epoch ms (0 if missing: the driver died)
 * @param stages the stage attempts, by stage id then attempt
 */
public record EventLog(
    String appId, String appName, long startMs, long endMs, List<StageRun> stages) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Copies the list. */
  public EventLog {
    stages = List.copyOf(stages);
  }

  /**
   * @return the stage attempts that read shuffle data
   */
  public List<StageRun> shuffleReadStages() {
    return stages.stream().filter(StageRun::readsShuffle).toList();
  }

  /**
   * Reads an event log: a single file, or the folder of a rolling event log ({@code
   * eventlog_v2_<app>}, Spark's {@code spark.eventLog.rolling.enabled}, whose {@code
   * events_<n>_<app>} files are read in the order of n). A last line that is not complete JSON (the
   * driver was killed while writing it) is ignored; any other line that does not parse is an error.
   *
   * @param path the event log file or rolling event log folder (uncompressed JSON lines)
   * @return what it records
   * @throws IOException if a file cannot be read or a line other than the last is not JSON (the
   *     message names the file and line)
   */
  public static EventLog read(Path path) throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(path)) {
      try (java.util.stream.Stream<Path> s = Files.list(path)) {
        s.filter(f -> f.getFileName().toString().startsWith("events_"))
            .sorted(
                Comparator.comparingLong(
                    f -> Long.parseLong(f.getFileName().toString().split("_")[1])))
            .forEach(files::add);
      }
    } else {
      files.add(path);
    }
    Reading r = new Reading();
    for (int i = 0; i < files.size(); i++) {
      r.file(files.get(i), i == files.size() - 1);
    }
    List<StageRun> runs = new ArrayList<>();
    r.stages.values().forEach(s -> runs.add(s.run()));
    runs.sort(Comparator.comparingInt(StageRun::stageId).thenComparingInt(StageRun::attempt));
    return new EventLog(r.appId, r.appName, r.start, r.end, runs);
  }

  /** The events read so far. */
  private static final class Reading {
    final Map<String, Stage> stages = new LinkedHashMap<>();
    String appId;
    String appName;
    long start;
    long end;

    void file(Path file, boolean last) throws IOException {
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        String line = in.readLine();
        int number = 0;
        while (line != null) {
          number++;
          String next = in.readLine();
          JsonNode e;
          try {
            e = JSON.readTree(line);
          } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            if (next == null && last) {
              break; // cut short by a crash
            }
            throw new IOException(
                file + ", line " + number + ": not a Spark event (" + ex.getOriginalMessage() + ")",
                ex);
          }
          switch (e.path("Event").asText()) {
            case "SparkListenerApplicationStart" -> {
              appId = e.path("App ID").asText(null);
              appName = e.path("App Name").asText(null);
              start = e.path("Timestamp").asLong();
            }
            case "SparkListenerApplicationEnd" -> end = e.path("Timestamp").asLong();
            case "SparkListenerStageSubmitted", "SparkListenerStageCompleted" -> {
              JsonNode info = e.path("Stage Info");
              stage(info.path("Stage ID").asInt(), info.path("Stage Attempt ID").asInt())
                  .info(info);
            }
            case "SparkListenerTaskEnd" ->
                stage(e.path("Stage ID").asInt(), e.path("Stage Attempt ID").asInt()).taskEnd(e);
            default -> {
              // other events carry nothing read here
            }
          }
          line = next;
        }
      }
    }

    private Stage stage(int id, int attempt) {
      return stages.computeIfAbsent(id + "." + attempt, k -> new Stage(id, attempt));
    }
  }

  /** A stage attempt being read. */
  private static final class Stage {
    final int id;
    final int attempt;
    String name;
    int tasks;
    long submitted;
    long completed;
    String failure;
    int failedTasks;
    long remote;
    long local;
    long fetchWait;
    long written;

    Stage(int id, int attempt) {
      this.id = id;
      this.attempt = attempt;
    }

    void info(JsonNode info) {
      name = info.path("Stage Name").asText(name);
      tasks = info.path("Number of Tasks").asInt(tasks);
      submitted = info.path("Submission Time").asLong(submitted);
      completed = info.path("Completion Time").asLong(completed);
      failure = info.path("Failure Reason").asText(failure);
    }

    void taskEnd(JsonNode e) {
      if (!"Success".equals(e.path("Task End Reason").path("Reason").asText())) {
        failedTasks++;
        return;
      }
      JsonNode m = e.path("Task Metrics");
      JsonNode read = m.path("Shuffle Read Metrics");
      remote += read.path("Remote Bytes Read").asLong();
      local += read.path("Local Bytes Read").asLong();
      fetchWait += read.path("Fetch Wait Time").asLong();
      written += m.path("Shuffle Write Metrics").path("Shuffle Bytes Written").asLong();
    }

    StageRun run() {
      return new StageRun(
          id,
          attempt,
          name,
          tasks,
          submitted,
          completed,
          failure,
          failedTasks,
          remote,
          local,
          fetchWait,
          written);
    }
  }
}
