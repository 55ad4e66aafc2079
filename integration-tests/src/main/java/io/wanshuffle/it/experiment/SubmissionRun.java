package io.wanshuffle.it.experiment;

import io.wanshuffle.spark.config.CaptureSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;

/**
 * One spark-submit run's folder and the steps every cluster manager's submission shares: the folder
 * {@code <runDir>/<NN-name>/} with {@code events/} (the event log, uncompressed, one file), {@code
 * capture/} (with the plugin's capture listener), {@code stdout.txt} and {@code spark-submit.args};
 * waiting for spark-submit within a timeout; measuring the testbed around it ({@link RunRecorder}).
 * Used by {@link Experiment#submit} (standalone) and {@link YarnExperiment#submit} (YARN).
 *
 * @param tag {@code NN-name}: the run's number and name, as folder and log names
 * @param dir the run's folder
 * @param conf the submission's Spark settings with the event log and capture folders set last
 */
record SubmissionRun(String tag, Path dir, Map<String, String> conf) {

  /**
   * @param runDir the experiment's run folder
   * @param seq the run's number in the experiment
   * @param name run name (characters outside {@code [A-Za-z0-9_.-]} become {@code _})
   * @param appConf the application's Spark settings
   * @return the run, its settings pointing the event log and capture into its folder (nothing is
   *     written yet: {@link #prepare})
   */
  static SubmissionRun of(Path runDir, int seq, String name, Map<String, String> appConf) {
    String tag =
        String.format(Locale.ROOT, "%02d-%s", seq, name.replaceAll("[^A-Za-z0-9_.-]", "_"));
    Path dir = runDir.resolve(tag);
    Map<String, String> conf = new LinkedHashMap<>(appConf);
    if (PluginSettings.capturing(conf)) {
      conf.put(CaptureSettings.CAPTURE_DIR.key(), dir.resolve("capture").toString());
    }
    conf.put("spark.eventLog.enabled", "true");
    conf.put("spark.eventLog.dir", dir.resolve("events").toUri().toString());
    conf.put("spark.eventLog.compress", "false");
    conf.put("spark.eventLog.rolling.enabled", "false");
    return new SubmissionRun(tag, dir, conf);
  }

  /**
   * @return {@code capture/} when the run has the capture listener, else null
   */
  Path capture() {
    return PluginSettings.capturing(conf) ? dir.resolve("capture") : null;
  }

  /**
   * @return the application's stdout file
   */
  Path stdout() {
    return dir.resolve("stdout.txt");
  }

  /**
   * @return the folder of its Spark event log
   */
  Path events() {
    return dir.resolve("events");
  }

  /**
   * Empties the run's folder, creates {@code events/} and writes {@code spark-submit.args}.
   *
   * @param args spark-submit's arguments, one per line in the file
   * @throws UncheckedIOException if the folder cannot be written
   */
  void prepare(List<String> args) {
    try {
      FileUtils.deleteDirectory(dir.toFile());
      Files.createDirectories(events());
      Files.writeString(dir.resolve("spark-submit.args"), String.join("\n", args) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + dir, e);
    }
  }

  /**
   * Waits for spark-submit; past the timeout kills it.
   *
   * @param submit the spark-submit process
   * @param timeout longest run
   * @param log spark-submit's log (its main thread's exception names a failure)
   * @return null when it exited 0, else why the run failed
   * @throws InterruptedException if interrupted while waiting
   */
  static String await(Process submit, Duration timeout, Path log) throws InterruptedException {
    if (!submit.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      submit.destroyForcibly().waitFor();
      return "ran longer than " + timeout.toSeconds() + " s (killed)";
    }
    if (submit.exitValue() != 0) {
      return "exit " + submit.exitValue() + mainThreadException(log).map(x -> ": " + x).orElse("");
    }
    return null;
  }

  /**
   * The measurement of a finished run.
   *
   * @param name run name
   * @param failure why it failed, null when it did not
   * @param startMs epoch ms spark-submit started
   * @param endMs epoch ms it ended
   * @param driverLog the driver's log
   * @param rec the recorder started with the run, finished
   * @return what {@link AppRunner#submit} returns
   * @throws IOException if the event log folder cannot be read
   */
  Submitted result(
      String name, String failure, long startMs, long endMs, Path driverLog, RunRecorder rec)
      throws IOException {
    return new Submitted(
        name,
        failure,
        startMs,
        endMs,
        stdout(),
        driverLog,
        eventLogIn(events()),
        capture(),
        rec.backbone(),
        rec.tcp(),
        rec.links());
  }

  /**
   * The exception that ended a failed driver, as the JVM printed it ({@code Exception in thread
   * "main" ...}), without the prefix; so a failed run says why next to its exit status instead of
   * only naming its log.
   *
   * @param driverLog the driver's log (stdout and stderr of spark-submit)
   * @return the last such line's exception and message, at most 300 characters; empty when there is
   *     none or the log cannot be read
   */
  static Optional<String> mainThreadException(Path driverLog) {
    String prefix = "Exception in thread \"main\" ";
    try (Stream<String> lines = Files.lines(driverLog, StandardCharsets.UTF_8)) {
      return lines
          .filter(l -> l.startsWith(prefix))
          .reduce((a, b) -> b)
          .map(l -> l.substring(prefix.length()).strip())
          .map(l -> l.length() <= 300 ? l : l.substring(0, 297) + "...");
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  /**
   * @param events a run's event log folder
   * @return its event log: a file, or a rolling event log's folder; of a driver that ran several
   *     SparkContexts one after another (one log each) the first application's, since Spark's
   *     application ids sort by start time; null when there is none
   * @throws IOException if the folder cannot be listed
   */
  static Path eventLogIn(Path events) throws IOException {
    try (Stream<Path> files = Files.list(events)) {
      return files.sorted().findFirst().orElse(null);
    }
  }
}
