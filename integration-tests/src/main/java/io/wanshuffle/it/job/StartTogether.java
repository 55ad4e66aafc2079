package io.wanshuffle.it.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Applications started together ({@code e2e-bench --concurrent N}) begin each measured run
 * together: each driver program, once its warm-up is done, marks itself ready for run {@code r} in
 * a folder the group shares ({@value #DIR_KEY}) and waits until the {@value #APPS_KEY} applications
 * of the group are ready, so that their shuffles cross the backbone at the same time although their
 * JVMs, executors and warm-ups took different times. A group whose applications do not all arrive
 * within {@link #WAIT} runs anyway (the driver says so on standard output): a failed copy never
 * holds the others.
 */
public final class StartTogether {
  /** The Spark setting naming the group's folder (absolute path; created when missing). */
  public static final String DIR_KEY = "spark.testbed.together.dir";

  /** The Spark setting giving how many applications the group has. */
  public static final String APPS_KEY = "spark.testbed.together.apps";

  /** How long a driver waits for the rest of its group before it runs alone. */
  static final Duration WAIT = Duration.ofMinutes(5);

  private static final long POLL_MS = 20;

  private StartTogether() {}

  /**
   * Marks this application ready for measured run {@code run} and waits for the rest of its group;
   * returns at once when the settings name no group.
   *
   * @param sparkConf the run's Spark settings
   * @param appName this application's name (unique in the group)
   * @param run the measured run about to start, from 0
   * @return true when the whole group was ready (or there is no group), false after {@link #WAIT}
   *     without it
   * @throws UncheckedIOException if the folder cannot be written or read
   * @throws InterruptedException if interrupted while waiting
   */
  public static boolean await(Map<String, String> sparkConf, String appName, int run)
      throws InterruptedException {
    return await(sparkConf, appName, run, WAIT);
  }

  /**
   * As {@link #await(Map, String, int)}, waiting at most {@code wait}.
   *
   * @param wait how long to wait for the rest of the group
   */
  static boolean await(Map<String, String> sparkConf, String appName, int run, Duration wait)
      throws InterruptedException {
    String dir = sparkConf.get(DIR_KEY);
    if (dir == null) {
      return true;
    }
    int apps = Integer.parseInt(sparkConf.getOrDefault(APPS_KEY, "1"));
    Path d = Path.of(dir);
    String prefix = "run-" + run + ".";
    try {
      Files.createDirectories(d);
      Files.writeString(d.resolve(prefix + appName + ".ready"), "");
      long deadline = System.currentTimeMillis() + wait.toMillis();
      while (ready(d, prefix) < apps) {
        if (System.currentTimeMillis() > deadline) {
          System.out.printf(
              "run %d: %d of %d applications ready after %d s; running without the others%n",
              run + 1, ready(d, prefix), apps, wait.toSeconds());
          return false;
        }
        Thread.sleep(POLL_MS);
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("the group folder " + d + " for applications run together", e);
    }
  }

  private static long ready(Path d, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
    }
  }
}
