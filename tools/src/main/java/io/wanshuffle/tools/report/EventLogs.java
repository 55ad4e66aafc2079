package io.wanshuffle.tools.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.spark.capture.CapturedEvents;
import io.wanshuffle.spark.capture.WanShuffleLinkChanged;
import io.wanshuffle.spark.capture.WanShuffleStageCaptured;
import io.wanshuffle.spark.capture.WanShuffleStepCompleted;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.deploy.history.EventLogFileReader;
import org.apache.spark.deploy.history.EventLogFileWriter;
import org.apache.spark.io.CompressionCodec;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.util.JsonProtocol;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads applications for the report from Spark event logs ({@code spark.eventLog.dir}), found and
 * opened the way Spark's History Server does: Spark's {@code EventLogFileReader} tells a single
 * event log file from a rolling event log's folder ({@code eventlog_v2_<app id>} with its {@code
 * events_<n>_<app id>} files and its {@code appstatus} file, read in index order) and opens each
 * file with the compression codec its name ends in ({@code lz4}, {@code lzf}, {@code snappy},
 * {@code zstd}, none for a plain log; an application still running writes {@code .inprogress}). The
 * {@code WanShuffleStageCaptured}, {@code WanShuffleStepCompleted} and {@code
 * WanShuffleLinkChanged} events are read back by Spark's own {@link JsonProtocol}.
 *
 * <p>An input that is not an event log (a file whose first line is not a Spark event, an empty
 * file, data that does not decode with the codec its name gives) is refused with one line naming
 * it; in a folder of event logs it is left out with a note. A log cut short (the application is
 * still running or did not end cleanly) or with lines that are not Spark events is still read, with
 * a note naming the file and line.
 */
public final class EventLogs {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STAGE_EVENT = WanShuffleStageCaptured.class.getName();
  private static final String STEP_EVENT = WanShuffleStepCompleted.class.getName();
  private static final String LINK_EVENT = WanShuffleLinkChanged.class.getName();

  private EventLogs() {}

  /**
   * What a path of event logs holds.
   *
   * @param applications one per event log, in file-name order
   * @param leftOut one line per file of a folder that is not an event log, naming it and why
   */
  public record Found(List<ApplicationCapture> applications, List<String> leftOut) {
    /** Copies the lists. */
    public Found {
      applications = List.copyOf(applications);
      leftOut = List.copyOf(leftOut);
    }
  }

  /** A file that is not an event log; its message names the file and why, on one line. */
  private static final class NotAnEventLog extends Exception {
    private static final long serialVersionUID = 1L;

    NotAnEventLog(String message) {
      super(message);
    }
  }

  /**
   * Reads Spark event logs: one application's log (a file, or a rolling event log's folder {@code
   * eventlog_v2_*}), or a folder of them (Spark's {@code spark.eventLog.dir}).
   *
   * @param path the file or folder (local)
   * @return the applications, and the files of a folder left out as not event logs
   * @throws IllegalArgumentException with one line naming the path when it is missing or
   *     unreadable, is not an event log, or is a folder holding none
   * @throws IOException if Hadoop's local file system cannot be set up
   */
  public static Found read(Path path) throws IOException {
    if (!Files.exists(path)) {
      throw new IllegalArgumentException(path + ": no such file or folder");
    }
    if (!Files.isReadable(path)) {
      throw new IllegalArgumentException(path + ": cannot be read (permission denied)");
    }
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    FileStatus status = fs.getFileStatus(hadoopPath(path));
    Option<EventLogFileReader> reader = EventLogFileReader.apply(fs, status);
    if (status.isFile() || reader.isDefined()) {
      if (reader.isEmpty()) {
        throw new IllegalArgumentException(
            path + ": not a Spark event log (a hidden file, which Spark does not read)");
      }
      try {
        return new Found(List.of(readLog(path, reader.get(), fs)), List.of());
      } catch (NotAnEventLog e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    }
    if (path.getFileName().toString().startsWith("eventlog_v2_")) {
      throw new IllegalArgumentException(
          path
              + ": not a Spark event log (a rolling event log's folder holds events_* files and an"
              + " appstatus file)");
    }
    List<ApplicationCapture> apps = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    FileStatus[] children;
    try {
      children = fs.listStatus(status.getPath());
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(path + ": cannot be listed (permission denied)", e);
    }
    List<FileStatus> sorted = new ArrayList<>(List.of(children));
    sorted.sort(Comparator.comparing(s -> s.getPath().getName()));
    for (FileStatus child : sorted) {
      Option<EventLogFileReader> r = EventLogFileReader.apply(fs, child);
      if (r.isEmpty()) {
        continue; // hidden files and folders that are not rolling event logs: Spark skips them
      }
      try {
        apps.add(readLog(localPath(child), r.get(), fs));
      } catch (NotAnEventLog e) {
        leftOut.add(e.getMessage() + " (left out)");
      }
    }
    if (apps.isEmpty()) {
      throw new IllegalArgumentException(
          path
              + ": no Spark event log here"
              + (leftOut.isEmpty()
                  ? ""
                  : " (" + leftOut.size() + " files that are not, e.g. " + leftOut.get(0) + ")"));
    }
    return new Found(apps, leftOut);
  }

  /**
   * @return the log's files in the order Spark replays them (a rolling log's by index, from its
   *     last compacted file)
   */
  private static List<Path> files(EventLogFileReader reader) {
    return CollectionConverters.asJava(reader.listEventLogFiles()).stream()
        .map(EventLogs::localPath)
        .toList();
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path p) {
    return new org.apache.hadoop.fs.Path(p.toAbsolutePath().toUri());
  }

  private static Path localPath(FileStatus s) {
    return Path.of(s.getPath().toUri());
  }

  /** Reads one application's event log, its files in order. */
  private static ApplicationCapture readLog(Path source, EventLogFileReader reader, FileSystem fs)
      throws NotAnEventLog {
    List<Path> files = files(reader);
    CapturedEvents events = new CapturedEvents();
    List<String> notes = new ArrayList<>();
    String[] app = {"", ""};
    if (!reader.completed()) {
      notes.add(
          source
              + ": in progress (the application is still running or did not end cleanly): what it"
              + " logged so far");
    }
    for (int i = 0; i < files.size(); i++) {
      readFile(files.get(i), fs, i == 0, i == files.size() - 1, events, notes, app);
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
    // a plugin that posts stage events with links also posts the link events (but for the
    // versions just before the link events, whose logs then read as if nothing moved)
    boolean linksRecorded =
        !events.linkChanges().isEmpty() || (events.stageCount() > 0 && !events.anyWithoutLinks());
    return new ApplicationCapture(
        app[0].isEmpty() && events.stageCount() > 0 ? events.stages().get(0).appId() : app[0],
        app[1],
        source.toString(),
        events.stages(),
        false,
        notes,
        events.linkChanges(),
        linksRecorded);
  }

  /**
   * Reads one file of a log line by line. The first line of the log's first file must be a Spark
   * event; a later line that is not is left out with a note, and the file's last line when it is
   * cut short. Data that stops decoding after the first line ends the file with a note.
   */
  private static void readFile(
      Path f,
      FileSystem fs,
      boolean first,
      boolean last,
      CapturedEvents events,
      List<String> notes,
      String[] app)
      throws NotAnEventLog {
    int number = 0;
    try (BufferedReader in = open(f, fs)) {
      String line = in.readLine();
      if (line == null && first) {
        throw new NotAnEventLog(f + ": empty, not a Spark event log");
      }
      while (line != null) {
        number++;
        String next = in.readLine();
        JsonNode e = parse(line);
        if (e == null || !e.path("Event").isTextual()) {
          if (number == 1 && first) {
            throw new NotAnEventLog(
                f + ": not a Spark event log (its first line is not a Spark event)");
          } else if (next == null && last) {
            notes.add(
                f
                    + ": line "
                    + number
                    + " is cut short (the application is still running or did not end cleanly);"
                    + " read up to line "
                    + (number - 1));
          } else {
            notes.add(f + ": line " + number + " is not a Spark event (left out)");
          }
        } else {
          event(e, line, f, number, events, notes, app);
        }
        line = next;
      }
    } catch (IOException | RuntimeException e) {
      // the codec cannot decode the data (not what the name says, cut short, or corrupt), or the
      // file cannot be read
      if (number == 0 && first) {
        throw new NotAnEventLog(f + ": not a Spark event log (" + unreadable(f, e) + ")");
      }
      notes.add(
          f
              + ": "
              + (e instanceof AccessDeniedException ? "unreadable" : "undecodable")
              + " after line "
              + number
              + " (the application is still running or did not end cleanly, or the file is"
              + " corrupt); read up to line "
              + number);
    }
  }

  /**
   * Opens a file of an event log with Spark's codec for its name.
   *
   * @throws NotAnEventLog when the name ends in an extension that is no codec of Spark's
   * @throws IOException when it cannot be opened or its codec's header does not decode
   */
  private static BufferedReader open(Path f, FileSystem fs) throws NotAnEventLog, IOException {
    org.apache.hadoop.fs.Path p = hadoopPath(f);
    Option<String> codec = EventLogFileWriter.codecName(p);
    if (codec.isDefined() && !codecs().contains(codec.get())) {
      throw new NotAnEventLog(
          f
              + ": not a Spark event log (its name ends in ."
              + codec.get()
              + ", none of Spark's compression codecs "
              + String.join(", ", codecs())
              + ")");
    }
    return new BufferedReader(
        new InputStreamReader(EventLogFileReader.openEventLog(p, fs), StandardCharsets.UTF_8));
  }

  /**
   * @return the short names of Spark's compression codecs ({@code lz4}, {@code lzf}, {@code
   *     snappy}, {@code zstd}), from Spark's own list
   */
  static List<String> codecs() {
    return CollectionConverters.asJava(CompressionCodec.ALL_COMPRESSION_CODECS()).stream()
        .map(CompressionCodec::getShortName)
        .sorted()
        .collect(Collectors.toList());
  }

  /**
   * @return why a file could not be read, in words (no exception text)
   */
  private static String unreadable(Path f, Exception e) {
    if (e instanceof AccessDeniedException) {
      return "cannot be read: permission denied";
    }
    Option<String> codec = EventLogFileWriter.codecName(hadoopPath(f));
    return codec.isDefined()
        ? "its data does not decode as "
            + codec.get()
            + ", the codec its name gives, or it is cut short within its first block"
        : "cannot be read";
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static void event(
      JsonNode e,
      String line,
      Path f,
      int number,
      CapturedEvents events,
      List<String> notes,
      String[] app) {
    String kind = e.path("Event").asText();
    if (kind.equals("SparkListenerApplicationStart")) {
      app[0] = e.path("App ID").asText("");
      app[1] = e.path("App Name").asText("");
    } else if (kind.equals(STAGE_EVENT) || kind.equals(STEP_EVENT) || kind.equals(LINK_EVENT)) {
      try {
        SparkListenerEvent ev = JsonProtocol.sparkEventFromJson(line);
        if (ev instanceof WanShuffleStageCaptured s) {
          events.add(s);
        } else if (ev instanceof WanShuffleStepCompleted s) {
          events.add(s);
        } else if (ev instanceof WanShuffleLinkChanged c) {
          events.add(c);
        }
      } catch (RuntimeException ex) {
        notes.add(
            f + ": line " + number + ": a " + kind + " event this version cannot read (left out)");
      }
    }
  }
}
