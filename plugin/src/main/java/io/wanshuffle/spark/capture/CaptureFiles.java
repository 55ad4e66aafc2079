package io.wanshuffle.spark.capture;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The capture files of one application and their reader (docs/capture.md). Layout under {@code
 * spark.wanshuffle.capture.dir}:
 *
 * <pre>
 * &lt;capture.dir&gt;/&lt;application id&gt;/
 *   stage-&lt;id&gt;.&lt;attempt&gt;.kryo        {@link StageCapture}, Kryo 4 (magic "WSCP", version 7)
 *   stage-&lt;id&gt;.&lt;attempt&gt;.matrix.csv  transfer matrix, bytes ({@link HostMatrix} CSV)
 *   flows.csv                         flow log of the whole application ({@link FlowCapture} rows)
 *   link-windows.csv                  the shared links' windows and this application's shares over
 *                                     time ({@link LinkChange} rows)
 * </pre>
 *
 * <p>{@code link-windows.csv} ({@link #LINK_LOG}): the header {@value #LINK_LOG_HEADER}, then one
 * row per change, in time order, written as it happens: {@code timeMs} epoch ms (driver clock),
 * {@code link} its name, {@code kind} what moved ({@code window}: the link's own window, {@code
 * spark.wanshuffle.window=adaptive}; {@code share}: this application's share of it, an arbiter
 * splitting the backbone between applications), then from that moment on the link's {@code window},
 * this application's {@code share} of it (the whole window when not split) and the link's {@code
 * capacity}, all in flows, and {@code otherApplications}, the other applications with demand on the
 * link when the share last moved (-1: not known). A header alone: no window or share moved.
 */
public final class CaptureFiles {
  /** First four bytes of a stage capture file: ASCII "WSCP". */
  public static final int MAGIC = 0x57534350;

  /** Format version written after the magic. */
  public static final int VERSION = 7;

  /**
   * Oldest format version read: version 2 lacks β, the host paths, the links and the link series
   * ({@link StageCapture#hasLinks()} is false for it); version 3 lacks the network figures ({@link
   * StageCapture#network()} is {@link NetworkFigures#NONE} for it); version 4 lacks the k, base
   * speed and β the stage was planned with ({@link NetworkFigures#plannedKnown()} is false);
   * versions 2 to 5 hold each plan's residual as a dense senders x receivers matrix, read into its
   * non-zero cells.
   */
  public static final int OLDEST_READABLE_VERSION = 2;

  /** Header line of {@code flows.csv}. */
  public static final String FLOW_LOG_HEADER =
      "stepId,stageId,stageAttempt,shuffleId,taskAttemptId,srcHost,dstHost,bytes,startMs,endMs,"
          + "handedOnMs,stalledMs";

  /** Header line of an 11-column flow log, without the {@code stalledMs} column (read as well). */
  static final String FLOW_LOG_HEADER_V2 =
      "stepId,stageId,stageAttempt,shuffleId,taskAttemptId,srcHost,dstHost,bytes,startMs,endMs,"
          + "handedOnMs";

  /** Header line of a 10-column flow log, without the {@code handedOnMs} column (read as well). */
  static final String FLOW_LOG_HEADER_V1 =
      "stepId,stageId,stageAttempt,shuffleId,taskAttemptId,srcHost,dstHost,bytes,startMs,endMs";

  /** File name of the flow log. */
  public static final String FLOW_LOG = "flows.csv";

  /** File name of the link log: the shared links' windows and shares over time. */
  public static final String LINK_LOG = "link-windows.csv";

  /** Header line of {@code link-windows.csv}. */
  public static final String LINK_LOG_HEADER =
      "timeMs,link,kind,window,share,capacity,otherApplications";

  private static final Pattern STAGE_FILE = Pattern.compile("stage-(\\d+)\\.(\\d+)\\.kryo");

  private CaptureFiles() {}

  /**
   * @param captureDir the configured capture folder
   * @param appId Spark application id
   * @return the application's capture folder
   */
  public static Path appDir(Path captureDir, String appId) {
    return captureDir.resolve(appId.replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /**
   * @return {@code stage-<id>.<attempt>.kryo} under {@code appDir}
   */
  static Path stageFile(Path appDir, int stageId, int attempt) {
    return appDir.resolve("stage-" + stageId + "." + attempt + ".kryo");
  }

  /**
   * @return {@code stage-<id>.<attempt>.matrix.csv} under {@code appDir}
   */
  static Path matrixFile(Path appDir, int stageId, int attempt) {
    return appDir.resolve("stage-" + stageId + "." + attempt + ".matrix.csv");
  }

  /**
   * Writes a stage capture atomically (temporary file, then rename).
   *
   * @param file destination
   * @param capture the capture
   * @throws IOException on write errors
   */
  public static void writeStage(Path file, StageCapture capture) throws IOException {
    writeStage(file, capture, VERSION);
  }

  /**
   * Writes a stage capture in an older format version, leaving out what that version lacks: for
   * tests of readers of older files.
   *
   * @param file the file to write
   * @param capture the capture
   * @param version {@value #OLDEST_READABLE_VERSION} to {@value #VERSION}
   * @throws IOException on write errors
   */
  public static void writeStage(Path file, StageCapture capture, int version) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream os = Files.newOutputStream(tmp);
        Output out = new Output(os, 64 * 1024)) {
      out.writeInt(MAGIC);
      out.writeVarInt(version, true);
      CaptureKryo.newKryo(version).writeObject(out, capture);
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Reads a stage capture file.
   *
   * @param file a {@code stage-*.kryo} file
   * @return the capture
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException naming the file if it is not a capture file, has another
   *     version, or is truncated
   */
  public static StageCapture readStage(Path file) throws IOException {
    return readVersionedStage(file).capture();
  }

  /**
   * A stage capture with the format version it was written in.
   *
   * @param capture the capture
   * @param version its file's format version ({@value #OLDEST_READABLE_VERSION} to {@value
   *     #VERSION})
   */
  public record VersionedStage(StageCapture capture, int version) {}

  /**
   * Reads a stage capture file and says which format version it had.
   *
   * @param file a {@code stage-*.kryo} file
   * @return the capture and its version
   * @throws IOException if the file cannot be read
   * @throws IllegalArgumentException naming the file if it is not a capture file, has a version
   *     this reader does not know, or is truncated
   */
  public static VersionedStage readVersionedStage(Path file) throws IOException {
    try (InputStream is = Files.newInputStream(file);
        Input in = new Input(is, 64 * 1024)) {
      int magic;
      try {
        magic = in.readInt();
      } catch (KryoException e) {
        throw new IllegalArgumentException(file + ": empty or truncated capture file", e);
      }
      if (magic != MAGIC) {
        throw new IllegalArgumentException(
            file
                + ": not a wan-shuffle stage capture (magic "
                + Integer.toHexString(magic)
                + ", expected "
                + Integer.toHexString(MAGIC)
                + ")");
      }
      int version = in.readVarInt(true);
      if (version < OLDEST_READABLE_VERSION || version > VERSION) {
        throw new IllegalArgumentException(
            file
                + ": capture format version "
                + version
                + ", this reader knows versions "
                + OLDEST_READABLE_VERSION
                + " to "
                + VERSION);
      }
      try {
        return new VersionedStage(
            CaptureKryo.newKryo(version).readObject(in, StageCapture.class), version);
      } catch (KryoException e) {
        throw new IllegalArgumentException(
            file + ": truncated or corrupt capture: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Reads every {@code stage-*.kryo} of an application folder.
   *
   * @param appDir {@link #appDir(Path, String)}
   * @return the captures ordered by stage id, then attempt (empty if the folder has none)
   * @throws IOException on read errors
   */
  public static List<StageCapture> readStages(Path appDir) throws IOException {
    List<StageCapture> out = new ArrayList<>();
    if (!Files.isDirectory(appDir)) {
      return out;
    }
    try (Stream<Path> files = Files.list(appDir)) {
      for (Path p :
          files.filter(f -> STAGE_FILE.matcher(f.getFileName().toString()).matches()).toList()) {
        out.add(readStage(p));
      }
    }
    out.sort(
        Comparator.comparingInt(StageCapture::stageId)
            .thenComparingInt(StageCapture::stageAttempt));
    return out;
  }

  /**
   * Reads a stage's transfer matrix CSV.
   *
   * @param file a {@code stage-*.matrix.csv}
   * @return the matrix in bytes
   * @throws IOException on read errors
   */
  public static HostMatrix readMatrix(Path file) throws IOException {
    try (var r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return HostMatrix.readCsv(r, file.toString());
    }
  }

  /** Appends one flow log row (no header). */
  static void appendFlow(Writer w, FlowCapture f) throws IOException {
    w.write(
        f.stepId()
            + ","
            + f.stageId()
            + ","
            + f.stageAttempt()
            + ","
            + f.shuffleId()
            + ","
            + f.taskAttemptId()
            + ","
            + f.srcHost()
            + ","
            + f.dstHost()
            + ","
            + f.bytes()
            + ","
            + f.startMs()
            + ","
            + f.endMs()
            + ","
            + f.handedOnMs()
            + ","
            + f.stalledMs()
            + "\n");
  }

  /**
   * Reads a flow log of 12, 11 or 10 columns: without the {@code stalledMs} column no flow stalled;
   * without {@code handedOnMs} as well, {@code handedOnMs} is 0 and a flow holds its ports until
   * {@code endMs}.
   *
   * @param file {@code flows.csv}
   * @return its rows in file order
   * @throws IOException on read errors
   * @throws IllegalArgumentException naming file and 1-based line of a malformed row
   */
  public static List<FlowCapture> readFlowLog(Path file) throws IOException {
    List<FlowCapture> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).trim();
      if (l.isEmpty()
          || l.equals(FLOW_LOG_HEADER)
          || l.equals(FLOW_LOG_HEADER_V2)
          || l.equals(FLOW_LOG_HEADER_V1)) {
        continue;
      }
      String[] c = l.split(",", -1);
      try {
        if (c.length < 10 || c.length > 12) {
          throw new IllegalArgumentException(
              "expected 12 columns (" + FLOW_LOG_HEADER + "), got " + c.length);
        }
        out.add(
            new FlowCapture(
                Long.parseLong(c[0]),
                Integer.parseInt(c[1]),
                Integer.parseInt(c[2]),
                Integer.parseInt(c[3]),
                Long.parseLong(c[4]),
                c[5],
                c[6],
                Long.parseLong(c[7]),
                Long.parseLong(c[8]),
                Long.parseLong(c[9]),
                c.length >= 11 ? Long.parseLong(c[10]) : 0,
                c.length == 12 ? Long.parseLong(c[11]) : 0));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  /** Appends one link log row (no header). */
  static void appendLinkChange(Writer w, LinkChange c) throws IOException {
    w.write(
        c.timeMs()
            + ","
            + c.link()
            + ","
            + c.kind().csv()
            + ","
            + c.window()
            + ","
            + c.share()
            + ","
            + c.capacity()
            + ","
            + c.otherApplications()
            + "\n");
  }

  /**
   * Reads a link log ({@value #LINK_LOG}). A link's name may hold commas: the columns after it are
   * counted from the end of the row.
   *
   * @param file {@code link-windows.csv}
   * @return its changes in file order (time order as written); empty when no window or share moved
   * @throws IOException on read errors
   * @throws IllegalArgumentException naming file and 1-based line of a malformed row (too few
   *     columns, a number that does not parse, a kind other than {@code window} or {@code share}, a
   *     share outside 0..window)
   */
  public static List<LinkChange> readLinkLog(Path file) throws IOException {
    List<LinkChange> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).trim();
      if (l.isEmpty() || l.equals(LINK_LOG_HEADER)) {
        continue;
      }
      String[] c = l.split(",", -1);
      try {
        if (c.length < 7) {
          throw new IllegalArgumentException(
              "expected 7 columns (" + LINK_LOG_HEADER + "), got " + c.length);
        }
        int n = c.length;
        out.add(
            new LinkChange(
                Long.parseLong(c[0]),
                String.join(",", java.util.Arrays.asList(c).subList(1, n - 5)),
                LinkChange.Kind.ofCsv(c[n - 5]),
                Integer.parseInt(c[n - 4]),
                Integer.parseInt(c[n - 3]),
                Integer.parseInt(c[n - 2]),
                Integer.parseInt(c[n - 1])));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  /**
   * @return stage id and attempt of a stage file name, or null
   */
  static int[] stageOf(String fileName) {
    Matcher m = STAGE_FILE.matcher(fileName);
    return m.matches()
        ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))}
        : null;
  }
}
