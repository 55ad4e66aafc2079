package io.wanshuffle.bench.speed;

import java.util.List;
import java.util.Locale;

/** Renders the speed results as the Markdown of docs/benchmarks/scheduler-speed.md. */
final class SpeedReport {
  /** Target for {@code auto}: 500 x 500 in under this many milliseconds. */
  static final double TARGET_500_MS = 2_000;

  /** Target for {@code auto}: 1000 x 1000 in under this many milliseconds. */
  static final double TARGET_1000_MS = 10_000;

  /** Target for {@code auto}: heap under this many bytes. */
  static final long TARGET_HEAP_BYTES = 1L << 30;

  private SpeedReport() {}

  /**
   * @param rows results, in the order to show
   * @param command the command line that regenerates the report
   * @param settings human description of the JMH and probe settings
   * @param machine machine description
   * @param when UTC time of the run
   * @param load load averages at start and end of the run
   * @return the Markdown text
   */
  static String render(
      List<SpeedRow> rows,
      String command,
      String settings,
      String machine,
      String when,
      String load) {
    StringBuilder b = new StringBuilder();
    b.append("# Scheduler speed (JMH)\n\n");
    b.append(
            "Time and memory of one `StepScheduler.schedule` call on a dense n x n traffic matrix"
                + " (every entry non-zero, amounts uniform in 1..")
        .append(DenseInstances.MAX_WEIGHT)
        .append(" s, fixed seed ")
        .append(SchedulerSpeedBenchmark.SEED)
        .append("), 1-port, k = n/10, β = ")
        .append(fmt(DenseInstances.BETA))
        .append(" s, one thread.\n\n");
    b.append("Regenerate (from the repository root):\n\n    ").append(command).append("\n\n");
    b.append("- Run: ").append(when).append("\n");
    b.append("- Machine: ").append(machine).append("\n");
    b.append("- Load average (1/5/15 min) at start / end: ")
        .append(load)
        .append(" (the machine is shared; other processes may have run during the measurement)\n");
    b.append("- Settings: ").append(settings).append("\n\n");
    b.append(
        "Columns: **JMH time** is the average time per call after warm-up (± the 99.9 %"
            + " confidence half-width JMH reports); **JMH best iteration** is the fastest measurement"
            + " iteration (closest to an unloaded machine); **allocated** is the bytes allocated per call"
            + " (JMH gc profiler, `gc.alloc.rate.norm`); **cold run** is one call in a fresh JVM"
            + " (no JIT warm-up) capped by the heap limit and the time limit, in wall time and in CPU"
            + " time of the probe JVM (all threads: scheduling, GC, JIT; less disturbed by other load"
            + " on a shared machine);"
            + " **warm run** is the fastest of up to "
            + SpeedProbe.MAX_WARM
            + " repeated calls in that"
            + " JVM (as many as fit in half the time limit), wall and CPU time; **peak heap** is the"
            + " heap high-water mark of that cold run (sum of the heap pools' peaks: an upper bound,"
            + " garbage included, matrix included); **cost/η** is the schedule's cost over the lower"
            + " bound.\n\n");
    b.append(
        "| algorithm | n | k | JMH time (ms) | JMH best iteration (ms) | allocated / call (MB) | cold run wall / CPU (s) |"
            + " warm run wall / CPU (s) | peak heap (MB) | steps | cost/η |\n");
    b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (SpeedRow r : rows) {
      ProbeResult p = r.probe();
      b.append("| ")
          .append(r.algorithm())
          .append(" | ")
          .append(r.n())
          .append(" | ")
          .append(r.k())
          .append(" | ");
      if (Double.isNaN(r.jmhMillis())) {
        b.append(p.finished() ? "not measured" : "—");
      } else {
        b.append(fmt(r.jmhMillis()));
        if (!Double.isNaN(r.jmhErrorMillis())) {
          b.append(" ± ").append(fmt(r.jmhErrorMillis()));
        }
      }
      b.append(" | ").append(fmt(r.jmhBestMillis()));
      b.append(" | ")
          .append(Double.isNaN(r.allocBytesPerOp()) ? "—" : fmt(r.allocBytesPerOp() / 1e6));
      if (p.finished()) {
        b.append(" | ")
            .append(fmt(p.seconds()))
            .append(" / ")
            .append(fmt(p.cpuSeconds()))
            .append(" | ")
            .append(
                p.warmRuns() == 0 ? "—" : fmt(p.warmSeconds()) + " / " + fmt(p.warmCpuSeconds()))
            .append(" | ")
            .append(fmt(p.peakHeapBytes() / 1048576.0))
            .append(" | ")
            .append(p.steps())
            .append(" | ")
            .append(String.format(Locale.ROOT, "%.4f", p.ratio()));
      } else {
        b.append(" | ")
            .append(p.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' '))
            .append(": ")
            .append(p.detail().replace("|", "/"))
            .append(" | — | — | — | — |");
        b.append("\n");
        continue;
      }
      b.append(" |\n");
    }
    b.append("\n## Targets for `auto`\n\n");
    b.append(target(rows, 500, TARGET_500_MS));
    b.append(target(rows, 1000, TARGET_1000_MS));
    b.append(memoryTarget(rows));
    return b.toString();
  }

  private static String target(List<SpeedRow> rows, int n, double limitMs) {
    String head = "- " + n + " x " + n + " in under " + fmt(limitMs / 1000) + " s: ";
    for (SpeedRow r : rows) {
      if (r.algorithm().equals("auto") && r.n() == n) {
        ProbeResult p = r.probe();
        if (Double.isNaN(r.jmhMillis())) {
          return head + "**not met** (" + p.detail() + ")\n";
        }
        String figures =
            "JMH "
                + fmt(r.jmhMillis() / 1000)
                + " s per call (wall), best iteration "
                + fmt(r.jmhBestMillis() / 1000)
                + " s; cold run "
                + fmt(p.seconds())
                + " s wall, "
                + fmt(p.cpuSeconds())
                + " s CPU"
                + (p.warmRuns() > 0
                    ? "; warm run "
                        + fmt(p.warmSeconds())
                        + " s wall, "
                        + fmt(p.warmCpuSeconds())
                        + " s CPU"
                    : "");
        if (r.jmhMillis() < limitMs) {
          return head + "**met** (" + figures + ")\n";
        }
        return head
            + "**not met in wall time** ("
            + figures
            + ")"
            + (bestCpu(p) * 1000 < limitMs
                ? "; the CPU time is under the target, so the wall time"
                    + " reflects the load of the shared machine"
                : "")
            + "\n";
      }
    }
    return head + "not measured in this run\n";
  }

  private static double bestCpu(ProbeResult p) {
    return p.warmRuns() > 0 ? Math.min(p.cpuSeconds(), p.warmCpuSeconds()) : p.cpuSeconds();
  }

  private static String memoryTarget(List<SpeedRow> rows) {
    long peak = -1;
    boolean all = true;
    boolean any = false;
    for (SpeedRow r : rows) {
      if (r.algorithm().equals("auto")) {
        any = true;
        if (r.probe().finished()) {
          peak = Math.max(peak, r.probe().peakHeapBytes());
        } else {
          all = false;
        }
      }
    }
    String head = "- memory under 1 GB: ";
    if (!any) {
      return head + "not measured in this run\n";
    }
    boolean met = all && peak < TARGET_HEAP_BYTES;
    return head
        + (met ? "**met**" : "**not met**")
        + " (every cold run "
        + (all ? "finished" : "did not finish")
        + " under -Xmx1g; largest peak heap "
        + fmt(peak / 1048576.0)
        + " MB)\n";
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "—";
    }
    if (Math.abs(v) >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (Math.abs(v) >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }
}
