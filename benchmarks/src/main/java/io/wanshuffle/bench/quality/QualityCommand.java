package io.wanshuffle.bench.quality;

import io.wanshuffle.cli.units.BytesPerSecond;
import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.workload.Coflow;
import io.wanshuffle.scheduler.workload.CoflowTrace;
import io.wanshuffle.scheduler.workload.CrossClusterShuffle;
import io.wanshuffle.scheduler.workload.FacebookTrace;
import io.wanshuffle.scheduler.workload.TwoClusterSplit;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench quality}: the scheduler quality report. Part 1 is the protocol of the GGP/OGGP paper
 * (Cohen, Jeannot, Padoy, Wagner, sec. 8): random 20 x 20 bipartite graphs ({@link PaperProtocol}),
 * small weights 1..20 and large weights 1..100000, β = 1, k = 2..20, a fixed seed per (weights, k);
 * it reports mean and max of cost/η per algorithm and k. Part 2 replays the Facebook coflow trace
 * split into two clusters ({@link TwoClusterSplit#halves}), both backbone directions, each
 * cross-cluster shuffle one instance in seconds at {@code --trace-rate}. Part 4: large n x n
 * instances with heavy-tailed amounts ({@link HeavyTailed}), β = 0.01 s. Writes Markdown to {@code
 * --report} (default {@code run/bench/scheduler-quality.md}).
 */
@Command(
    name = "quality",
    mixinStandardHelpOptions = true,
    header = "Cost/eta per scheduler and k (paper protocol, Facebook trace).",
    sortOptions = false,
    description =
        "Mean and max of cost/eta per algorithm and k (GGP/OGGP paper protocol and the"
            + " Facebook coflow trace); writes run/bench/scheduler-quality.md unless --report names a file.")
public final class QualityCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--samples",
      paramLabel = "N",
      defaultValue = "100",
      description =
          "Random graphs per (weights, k) (default ${DEFAULT-VALUE}; the paper used" + " 100000).")
  int samples;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "20040426",
      description =
          "Base seed; each (weights, k) uses seed + 1000003*k (+1 for large weights)"
              + " (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--k",
      split = ",",
      paramLabel = "K",
      description = "Values of k (default 2..20).")
  List<Integer> ks;

  @Option(
      names = "--algorithms",
      split = ",",
      paramLabel = "NAME",
      description =
          "Algorithms (default: every registered one except exact, which refuses most of"
              + " these instances, and liquid, which takes about 0.5 s per 20 x 20 instance and is"
              + " never costlier than auto on these topology-free instances).")
  List<String> algorithms;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "Coflow trace for part 3 (default: the repository's "
              + FacebookTrace.FOLDER
              + "/"
              + FacebookTrace.FILE
              + "; 'none' skips it).")
  String trace;

  @Option(
      names = "--trace-algorithms",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "auto,ggp,oggp",
      description =
          "Algorithms for the trace part (default ${DEFAULT-VALUE}; the heuristics build"
              + " a JGraphT flow network per step and take minutes per 75 x 75 trace instance).")
  List<String> traceAlgorithms;

  @Option(
      names = "--trace-rate",
      paramLabel = "BYTES_PER_S",
      defaultValue = "125000000",
      converter = BytesPerSecond.class,
      description =
          "Base speed for the trace, bytes/s of one flow (default ${DEFAULT-VALUE} ="
              + " 1 Gbit/s).")
  double traceRate;

  @Option(
      names = "--trace-beta",
      paramLabel = "SECONDS",
      defaultValue = "0.1",
      converter = DurationConverters.Seconds.class,
      description =
          "β for the trace instances: seconds, or a duration such as 100ms (default"
              + " ${DEFAULT-VALUE}).")
  double traceBeta;

  @Option(
      names = "--trace-k",
      split = ",",
      paramLabel = "K",
      defaultValue = "2,4,8,16,32",
      description = "Values of k for the trace (default ${DEFAULT-VALUE}).")
  List<Integer> traceKs;

  @Option(
      names = "--heavy-tailed-samples",
      paramLabel = "N",
      defaultValue = "5",
      description =
          "Part 4: heavy-tailed n x n instances per k (default ${DEFAULT-VALUE}; 0 skips" + " it).")
  int heavyTailedSamples;

  @Option(
      names = "--heavy-tailed-n",
      paramLabel = "N",
      defaultValue = "300",
      description = "Part 4: senders = receivers of its instances (default ${DEFAULT-VALUE}).")
  int heavyTailedN;

  @Option(
      names = "--heavy-tailed-k",
      split = ",",
      paramLabel = "K",
      defaultValue = "10,20,40,80",
      description = "Part 4: values of k (default ${DEFAULT-VALUE}).")
  List<Integer> heavyTailedKs;

  @Option(
      names = "--heavy-tailed-algorithms",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "auto,ggp,oggp",
      description = "Part 4: algorithms (default ${DEFAULT-VALUE}).")
  List<String> heavyTailedAlgorithms;

  @Option(
      names = {"--report", "--output"},
      paramLabel = "FILE.md",
      defaultValue = "run/bench/scheduler-quality.md",
      description =
          "Report file (default ${DEFAULT-VALUE}; the published report: --report"
              + " docs/benchmarks/scheduler-quality.md).")
  Path output;

  /** Runs the report; returns 0, or 2 (usage error) through picocli's ParameterException. */
  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<String> algs = algorithms();
    if (samples < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--samples must be at least 1, got " + samples);
    }
    List<Integer> kList = ks == null ? range(2, 20) : ks;
    for (int k : kList) {
      if (k < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--k values must be at least 1, got " + k);
      }
    }
    Path tracePath = tracePath();
    StringBuilder md = new StringBuilder();
    md.append("# Scheduler quality: cost / η\n\n")
        .append("Generated by `./wan-shuffle bench quality")
        .append(commandArgs())
        .append("`")
        .append(" (fixed seeds: rerunning gives the same numbers; times vary).\n\n")
        .append("cost = Σ (β + step duration) of the schedule; η = η_d + β·η_s is the lower bound")
        .append(" of the GGP/OGGP paper, sec. 5 (no integer rounding), so cost/η ≥ 1 and 1 is")
        .append(" optimal. Every schedule is checked with `Schedule.validate` first.\n\n");
    String[] names = {"Small weights (1..20)", "Large weights (1..100000)"};
    int[] maxW = {20, 100_000};
    for (int w = 0; w < 2; w++) {
      QualityTable table = new QualityTable(algs);
      for (int k : kList) {
        Random rnd = new Random(seed + 1_000_003L * k + w);
        Platform p = Platform.onePort(k, 1.0, PaperProtocol.SIDE, PaperProtocol.SIDE);
        for (int s = 0; s < samples; s++) {
          table.add(k, PaperProtocol.instance(rnd, maxW[w]), p);
        }
        out.printf(Locale.ROOT, "%s k=%d done%n", names[w], k);
        out.flush();
      }
      md.append("## ")
          .append(w == 0 ? "1" : "2")
          .append(". GGP/OGGP paper protocol, ")
          .append(names[w].toLowerCase(Locale.ROOT))
          .append("\n\n")
          .append("20 x 20 bipartite graphs, number of edges uniform in 1..400, edges uniform,")
          .append(" weights uniform integers in 1..")
          .append(maxW[w])
          .append(" seconds, β = 1 s,")
          .append(" 1-port, ")
          .append(samples)
          .append(" graphs per k.\n\n")
          .append(table.markdown("k"))
          .append('\n')
          .append(table.timing())
          .append("\n\n");
    }
    if (tracePath != null) {
      md.append(traceSection(tracePath, check(traceAlgorithms, "--trace-algorithms"), out));
    }
    if (heavyTailedSamples > 0) {
      if (heavyTailedN < 2) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--heavy-tailed-n must be at least 2, got " + heavyTailedN);
      }
      md.append(heavyTailedSection(check(heavyTailedAlgorithms, "--heavy-tailed-algorithms"), out));
    }
    Path parent = output.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(output, md.toString(), StandardCharsets.UTF_8);
    out.println("wrote " + output);
    out.flush();
    return 0;
  }

  private String traceSection(Path path, List<String> algs, PrintWriter out) throws Exception {
    CoflowTrace t = CoflowTrace.parse(path);
    TwoClusterSplit split = TwoClusterSplit.halves(t.racks());
    List<TrafficMatrix> instances = new ArrayList<>();
    for (Coflow c : t.coflows()) {
      for (TwoClusterSplit.Direction d : TwoClusterSplit.Direction.values()) {
        Optional<CrossClusterShuffle> x = split.crossCluster(c, d);
        x.ifPresent(s -> instances.add(s.seconds(traceRate)));
      }
    }
    QualityTable table = new QualityTable(algs);
    for (int k : traceKs) {
      for (TrafficMatrix m : instances) {
        table.add(k, m, Platform.onePort(k, traceBeta, m.rows(), m.cols()));
      }
      out.printf(Locale.ROOT, "trace k=%d done%n", k);
      out.flush();
    }
    int maxRows = 0;
    int maxCols = 0;
    for (TrafficMatrix m : instances) {
      maxRows = Math.max(maxRows, m.rows());
      maxCols = Math.max(maxCols, m.cols());
    }
    return "## 3. Facebook coflow trace, two clusters\n\n"
        + "Trace `"
        + path.getFileName()
        + "` ("
        + t.coflows().size()
        + " coflows, "
        + t.racks()
        + " racks). Racks 0.."
        + (split.firstRackOfB() - 1)
        + " form cluster A, the rest cluster B;"
        + " each reducer's megabytes are spread evenly over the coflow's mappers (as CoflowSim"
        + " does); each coflow gives up to two instances, A→B and B→A (the two directions of a"
        + " full-duplex backbone), rows = sender racks, columns = receiver racks (up to "
        + maxRows
        + " x "
        + maxCols
        + "). Amounts in seconds at "
        + traceRate
        + " bytes/s per flow,"
        + " β = "
        + traceBeta
        + " s, 1-port; "
        + instances.size()
        + " instances per k. See"
        + " docs/workloads.md for the conversion.\n\n"
        + table.markdown("k")
        + '\n'
        + table.timing()
        + "\n";
  }

  private String heavyTailedSection(List<String> algs, PrintWriter out) {
    QualityTable table = new QualityTable(algs);
    double beta = 0.01;
    for (int k : heavyTailedKs) {
      if (k < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--heavy-tailed-k values must be at least 1, got " + k);
      }
      Random rnd = new Random(seed + 7_000_003L * k + 3);
      for (int s = 0; s < heavyTailedSamples; s++) {
        TrafficMatrix m = HeavyTailed.instance(rnd, heavyTailedN);
        if (m.nonZeroCount() > 0) {
          table.add(k, m, Platform.onePort(k, beta, heavyTailedN, heavyTailedN));
        }
      }
      out.printf(Locale.ROOT, "heavy-tailed k=%d done%n", k);
      out.flush();
    }
    int n = heavyTailedN;
    return "\n## 4. Large instances with heavy-tailed amounts\n\n"
        + n
        + " x "
        + n
        + " matrices, each pair present with probability "
        + HeavyTailed.DENSITY
        + ", amounts Pareto-distributed (shape α = "
        + HeavyTailed.ALPHA
        + ", minimum 1 s), β = "
        + beta
        + " s, 1-port, "
        + heavyTailedSamples
        + " instances per k (about "
        + Math.round(HeavyTailed.DENSITY * n * n)
        + " transfers each). Keeping transfers whole"
        + " leaves most flows of a step idle beside a few long ones here; see"
        + " docs/scheduler-algorithms.md (`auto`, PreemptiveBatching and Auto.PEELING_GAP).\n\n"
        + table.markdown("k")
        + '\n'
        + table.timing()
        + "\n";
  }

  private List<String> algorithms() {
    List<String> known = Algorithms.names();
    if (algorithms == null) {
      List<String> l = new ArrayList<>();
      for (String n : known) {
        if (!n.equals("exact") && !n.equals("liquid")) {
          l.add(n);
        }
      }
      return l;
    }
    return check(algorithms, "--algorithms");
  }

  private List<String> check(List<String> names, String option) {
    List<String> known = Algorithms.names();
    for (String a : names) {
      if (!known.contains(a.toLowerCase(Locale.ROOT))) {
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            option + ": unknown algorithm '" + a + "'; known: " + String.join(", ", known));
      }
    }
    return names;
  }

  /**
   * @return the trace of part 3, or null with {@code --trace none}
   * @throws CommandLine.ParameterException if the file given, or the repository's copy, is missing
   */
  private Path tracePath() {
    if ("none".equals(trace)) {
      return null;
    }
    if (trace == null) {
      try {
        return FacebookTrace.require();
      } catch (NoSuchFileException e) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--trace: " + e.getMessage() + "; --trace none leaves part 3 out");
      }
    }
    Path p = Path.of(trace);
    if (!Files.isRegularFile(p)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--trace: no such file: " + p);
    }
    return p;
  }

  private String commandArgs() {
    StringBuilder sb = new StringBuilder(" --samples " + samples + " --seed " + seed);
    if (ks != null) {
      sb.append(" --k ").append(join(ks));
    }
    if (algorithms != null) {
      sb.append(" --algorithms ").append(String.join(",", algorithms));
    }
    if (trace != null) {
      sb.append(" --trace ").append(trace);
    }
    if (traceAlgorithms != null && !traceAlgorithms.equals(List.of("auto", "ggp", "oggp"))) {
      sb.append(" --trace-algorithms ").append(String.join(",", traceAlgorithms));
    }
    if (heavyTailedSamples != 5) {
      sb.append(" --heavy-tailed-samples ").append(heavyTailedSamples);
    }
    if (heavyTailedN != 300) {
      sb.append(" --heavy-tailed-n ").append(heavyTailedN);
    }
    if (!heavyTailedKs.equals(List.of(10, 20, 40, 80))) {
      sb.append(" --heavy-tailed-k ").append(join(heavyTailedKs));
    }
    if (!heavyTailedAlgorithms.equals(List.of("auto", "ggp", "oggp"))) {
      sb.append(" --heavy-tailed-algorithms ").append(String.join(",", heavyTailedAlgorithms));
    }
    return sb.toString();
  }

  private static String join(List<Integer> l) {
    List<String> s = new ArrayList<>();
    for (int i : l) {
      s.add(Integer.toString(i));
    }
    return String.join(",", s);
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> l = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      l.add(i);
    }
    return l;
  }
}
