package io.wanshuffle.it.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark daemon JVM (Master or Worker) started as a child process whose output goes to a log file;
 * waits for readiness lines in that log and kills the whole process tree (a Worker's executors are
 * its children).
 */
final class Daemon {
  private final String name;
  private final Process process;
  private final Path log;

  private Daemon(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code <prefix> java <jvmArgs> -cp <classPath> <mainClass> <args>} as a daemon.
   *
   * @param name name used in errors
   * @param prefix command prefix (e.g. {@code ip netns exec <ns>}), empty for none
   * @param env extra environment variables
   * @param log file receiving stdout and stderr
   */
  static Daemon start(
      String name,
      List<String> prefix,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args,
      Map<String, String> env,
      Path log)
      throws IOException {
    return new Daemon(
        name, startJava(prefix, jvmArgs, classPath, mainClass, args, env, log, null), log);
  }

  /**
   * Starts {@code <prefix> java <jvmArgs> -cp <classPath> <mainClass> <args>} with this JVM's
   * {@code java}, stdin from {@code /dev/null}, stdout and stderr to {@code log}, or stdout to its
   * own file.
   *
   * @param stdout file receiving stdout (stderr goes to {@code log}); null: both to {@code log}
   * @return the process
   */
  static Process startJava(
      List<String> prefix,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args,
      Map<String, String> env,
      Path log,
      Path stdout)
      throws IOException {
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(mainClass);
    cmd.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(nullFile()));
    if (stdout == null) {
      pb.redirectErrorStream(true).redirectOutput(log.toFile());
    } else {
      pb.redirectOutput(stdout.toFile()).redirectError(log.toFile());
    }
    pb.environment().putAll(env);
    return pb.start();
  }

  private static java.io.File nullFile() {
    return new java.io.File("/dev/null");
  }

  String name() {
    return name;
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  Path log() {
    return log;
  }

  /**
   * Waits until the log has a line matching {@code pattern}.
   *
   * @return the first match (group 1 if the pattern has a group, else the whole match)
   * @throws IllegalStateException if the process exits first or the timeout passes; the message
   *     names the daemon and ends with the last lines of its log
   */
  String awaitLog(Pattern pattern, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String text = readLog();
      Matcher m = pattern.matcher(text);
      if (m.find()) {
        return m.groupCount() > 0 ? m.group(1) : m.group();
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name
                + " exited with status "
                + process.exitValue()
                + " before logging '"
                + pattern
                + "'; log "
                + log
                + ":\n"
                + tail(text));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            name
                + " did not log '"
                + pattern
                + "' within "
                + timeout.toSeconds()
                + " s; log "
                + log
                + ":\n"
                + tail(text));
      }
      Thread.sleep(100);
    }
  }

  private String readLog() {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
    } catch (IOException e) {
      return "";
    }
  }

  static String tail(String text) {
    String[] lines = text.split("\n");
    int from = Math.max(0, lines.length - 30);
    return String.join("\n", java.util.Arrays.copyOfRange(lines, from, lines.length));
  }

  /**
   * Kills the daemon and every descendant: SIGTERM to all (a Worker then stops its executors), then
   * SIGKILL to whatever is still alive after {@code grace}.
   */
  void killTree(Duration grace) {
    List<ProcessHandle> all = new ArrayList<>();
    process.descendants().forEach(all::add);
    all.add(process.toHandle());
    killAll(all, grace);
  }

  static void killAll(List<ProcessHandle> handles, Duration grace) {
    handles.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + grace.toNanos();
    for (ProcessHandle h : handles) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        try {
          h.onExit().get(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        } catch (Exception e) {
          // timed out: forced below
        }
      }
    }
    handles.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
