package io.wanshuffle.it.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.StageInfo;

/**
 * A Spark listener on the driver that tells the fault injector ({@link FaultSession}) when reduce
 * stages start: it appends a line to the file named by {@value #FILE_KEY} when it is created
 * ({@code listening EPOCH_MS}) and whenever a stage that reads shuffle data (a stage with parent
 * stages) is submitted ({@code reduce EPOCH_MS STAGE ATTEMPT}, the stage's submission time). A
 * driver program that runs its job several times marks each measured run with {@link #mark} ({@code
 * begin EPOCH_MS}, {@code end EPOCH_MS}).
 *
 * <p>Registered with {@code spark.extraListeners}; the class has no dependency beyond Spark and the
 * JDK, so that {@link FaultOptions} can put it alone in a jar on the driver's class path of any
 * application. It reads the stage's parents reflectively, since their Scala collection type differs
 * between Spark's Scala 2.12 and 2.13 builds.
 */
public final class ReduceStageSignal extends SparkListener {
  /** The Spark setting naming the file the lines go to (absolute path). */
  public static final String FILE_KEY = "spark.testbed.faults.signalFile";

  /** First word of the line written when the listener starts. */
  public static final String LISTENING = "listening";

  /** First word of the line written when a reduce stage is submitted. */
  public static final String REDUCE = "reduce";

  /** First word of the line that marks the start of a measured run. */
  public static final String BEGIN = "begin";

  /** First word of the line that marks the end of a measured run. */
  public static final String END = "end";

  private final Path file;

  /**
   * Called by Spark with the application's configuration.
   *
   * @param conf the application's Spark configuration; {@value #FILE_KEY} must be set
   * @throws IllegalArgumentException if it is not
   * @throws UncheckedIOException if the file cannot be written
   */
  public ReduceStageSignal(SparkConf conf) {
    if (!conf.contains(FILE_KEY)) {
      throw new IllegalArgumentException(
          ReduceStageSignal.class.getName() + " needs " + FILE_KEY + " (the signal file)");
    }
    this.file = Path.of(conf.get(FILE_KEY));
    append(file, LISTENING + " " + System.currentTimeMillis());
  }

  @Override
  public void onStageSubmitted(SparkListenerStageSubmitted event) {
    StageInfo info = event.stageInfo();
    if (!hasParents(info)) {
      return;
    }
    long at = System.currentTimeMillis();
    Object submitted = info.submissionTime();
    if (submitted instanceof scala.Option<?> o && o.isDefined()) {
      at = ((Number) o.get()).longValue();
    }
    append(file, REDUCE + " " + at + " " + info.stageId() + " " + info.attemptNumber());
  }

  /**
   * Marks the start or end of a measured run in the signal file named by the settings, if any.
   *
   * @param sparkConf the run's Spark settings
   * @param word {@value #BEGIN} or {@value #END}
   * @throws UncheckedIOException if the file cannot be written
   */
  public static void mark(Map<String, String> sparkConf, String word) {
    String f = sparkConf.get(FILE_KEY);
    if (f != null) {
      append(Path.of(f), word + " " + System.currentTimeMillis());
    }
  }

  private static boolean hasParents(StageInfo info) {
    try {
      Object ids = info.getClass().getMethod("parentIds").invoke(info);
      return !(Boolean) ids.getClass().getMethod("isEmpty").invoke(ids);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read a stage's parents: " + e, e);
    }
  }

  private static synchronized void append(Path file, String line) {
    try {
      Files.writeString(
          file,
          line + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND,
          StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the fault signal file " + file, e);
    }
  }
}
