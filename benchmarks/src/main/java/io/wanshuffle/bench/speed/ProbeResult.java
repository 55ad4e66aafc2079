package io.wanshuffle.bench.speed;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the cold {@link SpeedProbe} run of one (algorithm, n) gave.
 *
 * @param outcome whether the probe finished, hit the time limit, or failed
 * @param seconds wall time of the one schedule call, seconds (NaN unless finished)
 * @param cpuSeconds CPU time of the probe JVM (all its threads) during the call, seconds (NaN
 *     unless finished)
 * @param warmSeconds fastest wall time of the repeated (warm) calls in the same JVM, seconds (NaN
 *     if none ran)
 * @param warmCpuSeconds smallest process CPU time of the warm calls, seconds (NaN if none ran)
 * @param warmRuns number of warm calls
 * @param peakHeapBytes heap high-water mark (sum of pool peaks), bytes (-1 unless finished)
 * @param steps number of steps of the schedule (-1 unless finished)
 * @param ratio cost / η of the schedule (NaN unless finished)
 * @param detail why it failed (last stderr line), empty otherwise
 */
record ProbeResult(
    Outcome outcome,
    double seconds,
    double cpuSeconds,
    double warmSeconds,
    double warmCpuSeconds,
    int warmRuns,
    long peakHeapBytes,
    int steps,
    double ratio,
    String detail) {

  /** How a probe ended. */
  enum Outcome {
    /** finished and the schedule validated */
    FINISHED,
    /** killed at the time limit */
    TIME_LIMIT,
    /** the child JVM failed (for instance OutOfMemoryError under the heap cap) */
    FAILED,
    /** not run because a smaller n of the same algorithm did not finish */
    SKIPPED
  }

  private static final Pattern LINE =
      Pattern.compile(
          "seconds=(\\S+) cpu=(\\S+) warmSeconds=(\\S+) warmCpu=(\\S+) warmRuns=(\\d+)"
              + " peakHeap=(\\d+) steps=(\\d+) ratio=(\\S+)");

  static ProbeResult parse(String line) {
    Matcher m = LINE.matcher(line.strip());
    if (!m.matches()) {
      return failed("unexpected probe output: " + line);
    }
    return new ProbeResult(
        Outcome.FINISHED,
        Double.parseDouble(m.group(1)),
        Double.parseDouble(m.group(2)),
        Double.parseDouble(m.group(3)),
        Double.parseDouble(m.group(4)),
        Integer.parseInt(m.group(5)),
        Long.parseLong(m.group(6)),
        Integer.parseInt(m.group(7)),
        Double.parseDouble(m.group(8)),
        "");
  }

  static ProbeResult failed(String why) {
    return new ProbeResult(
        Outcome.FAILED, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, -1, -1, Double.NaN, why);
  }

  static ProbeResult timeLimit(double limitSeconds) {
    return new ProbeResult(
        Outcome.TIME_LIMIT,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        0,
        -1,
        -1,
        Double.NaN,
        String.format(Locale.ROOT, "over the %.0f s time limit", limitSeconds));
  }

  static ProbeResult skipped(String why) {
    return new ProbeResult(
        Outcome.SKIPPED,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        0,
        -1,
        -1,
        Double.NaN,
        why);
  }

  boolean finished() {
    return outcome == Outcome.FINISHED;
  }
}
