package io.wanshuffle.it.bench;

import io.wanshuffle.it.TestbedOptions;
import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.demo.Prediction;
import io.wanshuffle.it.demo.TraceInput;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TcpTrace;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.testbed.Experiment;
import io.wanshuffle.it.testbed.StandaloneOptions;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code wan-shuffle e2e-bench}: Spark's default shuffle against wan-shuffle on the shaped testbed,
 * for several traffic patterns and WAN round-trip times, several runs each; writes {@code
 * docs/benchmarks/end-to-end.md}.
 */
@Command(
    name = "e2e-bench",
    mixinStandardHelpOptions = true,
    header = "Benchmark default shuffle vs wan-shuffle on the testbed.",
    description = {
      "End-to-end benchmark on the two-cluster testbed: default shuffle vs wan-shuffle on uniform,"
          + " Zipf-skewed, fair-sharing-poor and trace-replay traffic, at each --rtts value; reports medians and"
          + " spread of the reduce-stage time, backbone utilisation and the ratio to the physical limit.",
      "Writes a Markdown report (default docs/benchmarks/end-to-end.md)."
    })
public final class E2eBenchCommand implements Callable<Integer> {
  @Mixin TestbedOptions net;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec commandSpec;

  @Option(
      names = "--patterns",
      split = ",",
      defaultValue = "uniform,zipf,fair-poor,fair-poor-grid,trace",
      description =
          "patterns: uniform, zipf, fair-poor (RR-5361 Fig. 3), fair-poor-grid (Fig. 3 widened: one"
              + " long transfer and a grid of short ones), trace, both-ways (uniform A to B and Zipf B to A at once;"
              + " maps and reduces on every host) (default ${DEFAULT-VALUE})")
  List<String> patterns;

  @Option(
      names = "--variants",
      split = ",",
      defaultValue = "default,auto,oggp",
      description =
          "default = Spark's sort shuffle; other names are wan-shuffle algorithms, pipelined steps;"
              + " suffixes set a step option: ALGORITHM/barrier runs it with barrier steps, ALGORITHM/arrival with"
              + " hand-over on arrival, ALGORITHM/predicted with predicted hand-over (the default), e.g."
              + " auto/barrier/arrival (default ${DEFAULT-VALUE})")
  List<String> variants;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description =
          "extra Spark configuration for the wan-shuffle variants (repeatable), e.g. "
              + "spark.wanshuffle.coordinator.gatherWindow=0ms")
  Map<String, String> extraConf = new LinkedHashMap<>();

  @Option(
      names = "--rtts",
      split = ",",
      defaultValue = "0,40",
      description = "WAN RTTs, ms (default ${DEFAULT-VALUE})")
  List<Integer> rtts;

  @Option(
      names = "--runs",
      defaultValue = "3",
      description = "measured runs per variant (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--mb",
      defaultValue = "150",
      description = "bytes shuffled per run, MB (default ${DEFAULT-VALUE})")
  int mb;

  @Option(
      names = "--cores",
      defaultValue = "1",
      description =
          "cores per Worker and executor; with more than 1,"
              + " several reduce tasks of a host fetch at once (default ${DEFAULT-VALUE})")
  int cores;

  @Option(
      names = "--tasks-per-host",
      defaultValue = "2",
      description =
          "map tasks per A host and reduce tasks"
              + " (partitions) per B host (default ${DEFAULT-VALUE})")
  int tasksPerHost;

  @Option(
      names = "--warmup",
      defaultValue = "full",
      description =
          "the unmeasured run before the measured ones:"
              + " full (the same job; warms every code path a measured run takes) or small (1 MiB per host pair; with"
              + " gate.minBytes=auto its reads go ungated, so the first measured run includes the plugin's cold start)"
              + " (default ${DEFAULT-VALUE})")
  Warmup warmup;

  /** The unmeasured run of each application before its measured ones. */
  enum Warmup {
    full,
    small
  }

  @Option(
      names = "--tcp-sample",
      description =
          "sample the cluster A hosts' cross-cluster TCP connections (ss,"
              + " every 100 ms; <run>.tcp.csv) and report the flows stalled by a congestion window of at most 4 segments"
              + " (BBR's PROBE_RTT) during each reduce stage")
  boolean tcpSample;

  @Option(
      names = "--report",
      defaultValue = "docs/benchmarks/end-to-end.md",
      description =
          "Markdown output; an"
              + " existing report's hand-written sections are kept and its table moved under its earlier tables")
  Path report;

  /** The report file's content before the first write of this run ("" when there was none). */
  private String previousReport;

  @Option(
      names = "--out",
      defaultValue = "run/e2e-bench",
      description = "folder for logs and results")
  Path out;

  @Option(
      names = "--trace-dir",
      description =
          "pattern trace: the Facebook coflow trace file or folder (default:"
              + " shared/data/coflow-benchmark/ in the working folder or a parent, or -Dwanshuffle.coflowTrace)")
  Path traceDir;

  @Option(
      names = "--coflow",
      paramLabel = "ID",
      description =
          "pattern trace: replay this coflow (its id, the first"
              + " field of its line) instead of the largest one with every testbed host taking part")
  Long coflow;

  /**
   * How the trace pattern's matrix was made (a sentence for the report), or null when it is not
   * run.
   */
  private String traceDescription;

  /**
   * One measured cell: a pattern, an RTT, a variant, its runs.
   *
   * @param setupSeconds per run, the steps' setup time S x β of the measured traffic matrix: S =
   *     steps of the OGGP schedule on the testbed's platform (the papers' reference
   *     2-approximation), β = the wan-shuffle variants' configured set-up delay, s; the same for
   *     every variant of a pattern
   * @param stalls per run, the cross-cluster flows stalled by a small congestion window during the
   *     reduce stage ({@link TcpTrace#stalls}); empty without {@code --tcp-sample}
   */
  record Cell(
      String pattern,
      int rtt,
      String variant,
      List<Comparison.Figures> runs,
      List<Double> setupSeconds,
      List<Integer> stalls) {}

  @Override
  public Integer call() {
    List<Cell> cells = new ArrayList<>();
    List<String> known = io.wanshuffle.scheduler.alg.Algorithms.names();
    for (String v : variants) {
      List<String> suffixes = suffixesOf(v);
      if (!VARIANT_SUFFIXES.containsAll(suffixes)) {
        throw new picocli.CommandLine.ParameterException(
            commandSpec.commandLine(),
            "--variants: '"
                + v
                + "': unknown suffix; the suffixes are "
                + VARIANT_SUFFIXES.stream().map(x -> "/" + x).toList());
      }
    }
    List<String> unknown =
        variants.stream()
            .filter(
                v -> !v.equals("default") && !v.equals("none") && !known.contains(algorithmOf(v)))
            .toList();
    if (variants.isEmpty() || !unknown.isEmpty()) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(),
          "--variants: "
              + (unknown.isEmpty() ? "none given" : "unknown " + unknown)
              + "; give default and/or wan-shuffle"
              + " algorithms "
              + known);
    }
    if (cores < 1 || tasksPerHost < 1) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(),
          "--cores and --tasks-per-host" + " must be >= 1, got " + cores + " and " + tasksPerHost);
    }
    if (runs < 1 || mb < 1) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(),
          "--runs and --mb must be >= 1," + " got " + runs + " and " + mb);
    }
    // every testbed the run will build, checked before the first starts (an RTT out of range fails
    // now, not
    // after the runs of the RTTs before it)
    TestbedSpec base;
    try {
      base = net.spec();
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(commandSpec.commandLine(), e.getMessage());
    }
    for (int rtt : rtts) {
      try {
        base.withRtt(rtt);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.ParameterException(
            commandSpec.commandLine(), "--rtts: " + e.getMessage());
      }
    }
    // built once (the trace pattern reads the trace file); an unknown pattern or one the topology
    // cannot hold
    // fails before any run
    Map<String, double[][]> matrices = new LinkedHashMap<>();
    for (String pattern : patterns) {
      try {
        matrices.put(pattern, matrix(pattern, base));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.ParameterException(
            commandSpec.commandLine(), "--patterns: " + e.getMessage());
      }
    }
    // β of the wan-shuffle variants (the plugin's default unless --conf sets it), for the steps'
    // setup time; and
    // every variant's settings as the plugin will check them, before any testbed starts
    double beta;
    try {
      beta = Experiment.checkWanShuffleConf(base, "oggp", extraConf).betaSeconds();
      for (String v : variants) {
        if (!v.equals("default")) {
          Experiment.checkWanShuffleConf(base, algorithmOf(v), extraConf);
        }
      }
    } catch (IllegalArgumentException e) {
      throw new picocli.CommandLine.ParameterException(
          commandSpec.commandLine(), "--conf: " + e.getMessage());
    }
    long t0 = System.currentTimeMillis();
    String described = "";
    List<String> wrongAnswers = new ArrayList<>();
    for (int rtt : rtts) {
      TestbedSpec spec = base.withRtt(rtt);
      try (Experiment ex =
          Experiment.start(
              spec,
              out.resolve("rtt-" + rtt),
              StandaloneOptions.defaults().withWorkerCores(cores))) {
        described =
            ex.testbed()
                    .describe()
                    .replace("WAN RTT " + rtt + " ms", "WAN RTT as in the RTT column")
                + (cores == 1 ? "" : ", " + cores + " cores per executor");
        if (!ex.testbed().shaped()) {
          System.out.println(
              "NOTE: loopback variant: the backbone is not shaped; times are not comparable.");
        } else {
          ex.sampleTcp(tcpSample);
        }
        for (String pattern : patterns) {
          double[][] m = matrices.get(pattern);
          List<String> expected = null;
          String expectedFrom = null;
          for (String variant : variants) {
            Map<String, String> conf = ex.baseConf("640m");
            conf.put("spark.shuffle.compress", "false");
            if (!variant.equals("default")) {
              conf.putAll(ex.wanShuffleConf(algorithmOf(variant)));
              conf.putAll(extraConf);
              if (suffixesOf(variant).contains(WanShuffleConf.BARRIER)) {
                conf.put(WanShuffleConf.STEP_MODE, WanShuffleConf.BARRIER);
              }
              for (String handover : List.of(WanShuffleConf.PREDICTED, WanShuffleConf.ARRIVAL)) {
                if (suffixesOf(variant).contains(handover)) {
                  conf.put(WanShuffleConf.STEP_HANDOVER, handover);
                }
              }
            }
            String runName = pattern + "-" + variant.replace('/', '-');
            boolean bothWays = pattern.equals(BOTH_WAYS);
            int all = spec.nodesA() + spec.nodesB();
            JobRequest req =
                new JobRequest(
                    runName,
                    conf,
                    hosts(ex.testbed().clusterA()),
                    hosts(ex.testbed().clusterB()),
                    bothWays ? JobRequest.MATRIX_ALL : "matrix",
                    0,
                    tasksPerHost * (bothWays ? all : spec.nodesA()),
                    tasksPerHost * (bothWays ? all : spec.nodesB()),
                    m,
                    64 * 1024,
                    runs,
                    true,
                    0,
                    warmup == Warmup.full);
            Experiment.Measured r = ex.run(runName + "-rtt" + rtt, req, 0);
            List<Comparison.Figures> figs = new ArrayList<>();
            List<Double> setups = new ArrayList<>();
            List<Integer> stalls = new ArrayList<>();
            int runNo = 0;
            for (RunResult run : r.result().runs()) {
              figs.add(Comparison.of(variant, run, r.backbone(), spec));
              if (r.tcp() != null) {
                stalls.add(r.tcp().stalls(run.reduceStageStartMs(), run.reduceStageEndMs()).size());
              }
              setups.add(
                  run.matrixTotal() > 0 ? setupSeconds(run.trafficMatrix(), spec, beta) : 0.0);
              runNo++;
              // every variant and run of a pattern shuffles the same records: the answers must be
              // identical
              if (expected == null) {
                expected = run.answer();
                expectedFrom = variant + " run " + runNo;
              } else if (!expected.equals(run.answer())) {
                wrongAnswers.add(
                    pattern
                        + " at RTT "
                        + rtt
                        + " ms: "
                        + variant
                        + " run "
                        + runNo
                        + " answered differently from "
                        + expectedFrom);
                System.out.println("WRONG ANSWER: " + wrongAnswers.get(wrongAnswers.size() - 1));
              }
            }
            Cell c = new Cell(pattern, rtt, variant, figs, setups, stalls);
            cells.add(c);
            System.out.println(line(c));
            write(
                markdown(
                    cells,
                    described + " (PARTIAL: the benchmark is still running or was interrupted)",
                    (System.currentTimeMillis() - t0) / 1000.0,
                    base.backboneBitsPerSecond()));
          }
        }
      }
    }
    String command =
        String.format(
                Locale.ROOT,
                "./wan-shuffle e2e-bench --patterns %s --variants %s --rtts %s"
                    + " --runs %d --mb %d --nodes-a %d --nodes-b %d --nic %s --backbone %s%s%s",
                String.join(",", patterns),
                String.join(",", variants),
                rtts.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse(""),
                runs,
                mb,
                net.nodesA,
                net.nodesB,
                net.nic,
                net.backbone,
                net.tcpCongestionControl.equals(TestbedSpec.DEFAULT_TCP_CC)
                    ? ""
                    : " --tcp-cc " + net.tcpCongestionControl,
                (cores == 1 ? "" : " --cores " + cores)
                    + (tasksPerHost == 2 ? "" : " --tasks-per-host " + tasksPerHost)
                    + (tcpSample ? " --tcp-sample" : "")
                    + (warmup == Warmup.full ? "" : " --warmup " + warmup)
                    + (coflow == null || traceDescription == null ? "" : " --coflow " + coflow))
            + extraConf.entrySet().stream()
                .map(e -> " --conf " + e.getKey() + "=" + e.getValue())
                .reduce("", String::concat);
    String md =
        markdown(
            cells,
            described
                + "; command: `"
                + command
                + "`"
                + (traceDescription == null ? "" : ". Pattern trace: " + traceDescription),
            (System.currentTimeMillis() - t0) / 1000.0,
            base.backboneBitsPerSecond());
    if (!wrongAnswers.isEmpty()) {
      md +=
          "\n**WRONG ANSWERS** (a variant's reduce tasks did not read exactly the records the first variant read):\n"
              + wrongAnswers.stream().map(w -> "- " + w + "\n").reduce("", String::concat);
    }
    write(md);
    System.out.println("wrote " + report);
    if (!wrongAnswers.isEmpty()) {
      System.err.println(
          "e2e-bench: " + wrongAnswers.size() + " run(s) with a wrong answer: " + wrongAnswers);
      return 1;
    }
    return 0;
  }

  /**
   * Writes the report: the generated part, over what the file held before the run ({@link
   * ReportMerge}: its hand-written notes kept, its table moved under the earlier tables).
   */
  private void write(String md) {
    try {
      if (previousReport == null) {
        previousReport = Files.exists(report) ? Files.readString(report) : "";
      }
      Files.createDirectories(report.toAbsolutePath().getParent());
      Files.writeString(report, ReportMerge.merge(previousReport, md));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot write " + report, e);
    }
  }

  /** Variant name suffixes: step mode barrier, hand-over predicted or on arrival. */
  private static final List<String> VARIANT_SUFFIXES =
      List.of(WanShuffleConf.BARRIER, WanShuffleConf.PREDICTED, WanShuffleConf.ARRIVAL);

  /**
   * @return the suffixes of a variant name ({@code auto/barrier/predicted} -> [barrier, predicted])
   */
  private static List<String> suffixesOf(String variant) {
    List<String> parts = List.of(variant.split("/"));
    return parts.subList(1, parts.size());
  }

  /**
   * @return the algorithm of a variant name ({@code auto/barrier} -> {@code auto})
   */
  private static String algorithmOf(String variant) {
    int slash = variant.indexOf('/');
    return slash < 0 ? variant : variant.substring(0, slash);
  }

  private double[][] matrix(String pattern, TestbedSpec spec) {
    double total = mb * 1e6;
    switch (pattern) {
      case "uniform":
        return Patterns.uniform(spec.nodesA(), spec.nodesB(), total);
      case "zipf":
        return Patterns.zipf(spec.nodesA(), spec.nodesB(), total, 1.0);
      case "fair-poor":
        return Patterns.fairSharingPoor(spec.nodesA(), spec.nodesB(), total);
      case "fair-poor-grid":
        return Patterns.fairSharingPoorGrid(
            spec.nodesA(),
            spec.nodesB(),
            total,
            (int) (spec.backboneBitsPerSecond() / spec.nicBitsPerSecond()));
      case BOTH_WAYS:
        return Patterns.bothWays(spec.nodesA(), spec.nodesB(), total);
      case "trace":
        Path f =
            TraceInput.locate(traceDir)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "pattern trace: "
                                + (traceDir != null
                                    ? "no trace file at --trace-dir " + traceDir
                                    : TraceInput.FILE
                                        + " not found (--trace-dir FILE_OR_FOLDER, or -D"
                                        + TraceInput.PROPERTY
                                        + "=FILE)")));
        TraceInput in =
            coflow == null
                ? TraceInput.largestShuffle(f, spec.nodesA(), spec.nodesB(), total)
                : TraceInput.coflow(f, coflow, spec.nodesA(), spec.nodesB(), total);
        traceDescription = in.describe();
        return in.bytes();
      default:
        throw new IllegalArgumentException(
            "unknown pattern '"
                + pattern
                + "' (uniform, zipf, fair-poor, fair-poor-grid, trace, "
                + BOTH_WAYS
                + ")");
    }
  }

  private static List<String> hosts(List<Node> nodes) {
    return nodes.stream().map(Node::address).toList();
  }

  /** The pattern that crosses the backbone both ways ({@link Patterns#bothWays}). */
  static final String BOTH_WAYS = "both-ways";

  /**
   * The steps' setup time of a traffic matrix on the testbed: S x β, S = steps of the OGGP
   * schedule. For a matrix between all hosts (A's first) the two directions are scheduled apart,
   * each with its own k, and run at the same time: the larger of the two.
   *
   * @param bytes {@code [senders][receivers]} bytes ({@code [A][B]}, or {@code [A + B][A + B]}), at
   *     least one non-zero cross-cluster cell
   * @param spec testbed rates and host counts
   * @param betaSeconds β, s
   * @return seconds
   */
  static double setupSeconds(long[][] bytes, TestbedSpec spec, double betaSeconds) {
    if (bytes.length != spec.nodesA() + spec.nodesB()) {
      return Prediction.of(bytes, spec, "oggp", betaSeconds).steps() * betaSeconds;
    }
    double setup = 0;
    for (long[][] direction : Comparison.directions(bytes, spec.nodesA())) {
      if (Arrays.stream(direction).flatMapToLong(Arrays::stream).sum() > 0) {
        setup =
            Math.max(
                setup, Prediction.of(direction, spec, "oggp", betaSeconds).steps() * betaSeconds);
      }
    }
    return setup;
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String line(Cell c) {
    double[] t = c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray();
    return String.format(
        Locale.ROOT,
        "%-10s rtt=%3d ms %-8s reduce stage median %.2f s (runs %s)%s",
        c.pattern(),
        c.rtt(),
        c.variant(),
        median(t),
        Arrays.toString(t),
        c.stalls().isEmpty() ? "" : " stalled flows per run " + c.stalls());
  }

  static String markdown(List<Cell> cells, String testbed, double seconds, double backboneBits) {
    boolean sampled = cells.stream().anyMatch(c -> !c.stalls().isEmpty());
    StringBuilder sb =
        new StringBuilder("# End-to-end benchmark: default shuffle vs wan-shuffle\n\n");
    sb.append("Generated by `./wan-shuffle e2e-bench` on ")
        .append(Instant.now())
        .append(" (took ")
        .append(String.format(Locale.ROOT, "%.0f", seconds))
        .append(" s). Testbed: ")
        .append(testbed)
        .append(".\n\n")
        .append(
            "Each cell: median over the measured runs of one Spark application (after an unmeasured warm-up run:"
                + " the same job, or with `--warmup small` a job of 1 MiB per host pair); spread ="
                + " (max - min) / median of the reduce-stage time. Backbone utilisation = bytes on the backbone"
                + " interface during the reduce stage x 8 / reduce-stage time / backbone rate. Physical limit ="
                + " max(total bytes / backbone rate, max host bytes / NIC rate) over the run's traffic matrix (Spark's map"
                + " output statistics fitted to the task metrics' exact bytes per host). Pattern "
                + BOTH_WAYS
                + ": A to B"
                + " and B to A at once; utilisation over both directions (2 x the rate), physical limit = max(each"
                + " direction's bytes / backbone rate, max host bytes sent or received / NIC rate), setup time = the"
                + " larger direction's, TCP retransmissions of every host (one way: of the A hosts). Steps'"
                + " setup time = S x β: S = steps of the OGGP schedule of the measured traffic matrix (k and δ from the"
                + " testbed's rates), β = the wan-shuffle set-up delay (`spark.wanshuffle.beta`); the same for every"
                + " variant of a pattern.")
        .append(
            sampled
                ? " Stalled flows (`--tcp-sample`): per run, the A-to-B TCP connections seen (ss, every 100"
                    + " ms) with data waiting and a congestion window of at most 4 segments during the reduce stage: BBR's"
                    + " PROBE_RTT, which holds a connection whose minimum-RTT estimate is 10 s old to 4 segments for"
                    + " 200 ms plus one round trip.\n\n"
                : "\n\n")
        .append(
            "| pattern | RTT (ms) | variant | reduce stage median (s) | spread | vs default | backbone"
                + " utilisation | reduce / physical limit | reduce / (limit + steps' setup) | TCP retrans (%) |"
                + (sampled ? " stalled flows per run |\n" : "\n")
                + "|---|---|---|---|---|---|---|---|---|---|"
                + (sampled ? "---|\n" : "\n"));
    Map<String, Double> defaults = new LinkedHashMap<>();
    for (Cell c : cells) {
      if (c.variant().equals("default")) {
        defaults.put(
            c.pattern() + "/" + c.rtt(),
            median(c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray()));
      }
    }
    for (Cell c : cells) {
      double[] t = c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray();
      double med = median(t);
      double spread = (Arrays.stream(t).max().orElse(0) - Arrays.stream(t).min().orElse(0)) / med;
      double util = median(c.runs().stream().mapToDouble(f -> f.meanBitsPerSecond()).toArray());
      double limit =
          median(c.runs().stream().mapToDouble(Comparison.Figures::physicalLimitSeconds).toArray());
      double retrans =
          median(c.runs().stream().mapToDouble(Comparison.Figures::retransPercent).toArray());
      double setup = median(c.setupSeconds().stream().mapToDouble(Double::doubleValue).toArray());
      Double d = defaults.get(c.pattern() + "/" + c.rtt());
      String vs =
          d == null || c.variant().equals("default")
              ? "-"
              : String.format(Locale.ROOT, "%+.1f%%", 100 * (med - d) / d);
      sb.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %s | %.2f | %.1f%% | %s | %s | %.2f | %.2f (%.2f s) | %s |",
                  c.pattern(),
                  c.rtt(),
                  c.variant(),
                  med,
                  100 * spread,
                  vs,
                  util < 0
                      ? "not shaped"
                      : String.format(Locale.ROOT, "%.0f%%", 100 * util / backboneBits),
                  med / limit,
                  med / (limit + setup),
                  setup,
                  retrans < 0 ? "-" : String.format(Locale.ROOT, "%.2f", retrans)))
          .append(
              sampled
                  ? " "
                      + c.stalls().stream()
                          .map(String::valueOf)
                          .reduce((a, b) -> a + ", " + b)
                          .orElse("-")
                      + " |\n"
                  : "\n");
    }
    return sb.toString();
  }
}
