package io.wanshuffle.it.bench;

import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.it.TestbedOptions;
import io.wanshuffle.it.concurrent.ConcurrentApps;
import io.wanshuffle.it.concurrent.ConcurrentOptions;
import io.wanshuffle.it.concurrent.ConcurrentReport;
import io.wanshuffle.it.concurrent.RunGroup;
import io.wanshuffle.it.concurrent.ZooKeeperServer;
import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.fault.FaultOptions;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.links.WindowBound;
import io.wanshuffle.it.links.WindowBound.Rule;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code wan-shuffle e2e-bench}: Spark's default shuffle against wan-shuffle (rack-blind and
 * topology-aware) on the shaped testbed, for several traffic patterns, testbed shapes and WAN
 * round-trip times, several runs each; writes a Markdown report ({@link E2eReport}), by default
 * {@code run/e2e-bench/end-to-end.md}.
 *
 * <p>Its steps: check the options (variants, sizes, shapes, RTTs, patterns and the plugin settings,
 * all before any testbed starts and before the report is touched); then per shape and RTT one
 * testbed, on which every pattern runs with every variant (one Spark application per cell: a
 * warm-up run and the measured runs; with {@code --alternate} one per measured run, the variants in
 * turns; with {@code --load} beside busy processes, {@link FillOptions}); after each cell the
 * answers are compared with the pattern's first and the partial report is written; at the end the
 * final report with the command that made it. Every run is also measured per link ({@link LinkRun}:
 * the testbed's topology file, the flow log, the link counters). The patterns' matrices come from
 * {@link PatternMatrices}, the cells and their answer checks are kept by {@link MeasuredCells}, the
 * report is written by {@link ReportFile}.
 */
@Command(
    name = "e2e-bench",
    modelTransformer = E2eBenchCommand.Help.class,
    mixinStandardHelpOptions = true,
    header = "Benchmark default shuffle vs wan-shuffle on the testbed.",
    description = {
      "End-to-end benchmark on the testbed: default shuffle vs wan-shuffle on uniform,"
          + " Zipf-skewed, fair-sharing-poor and trace-replay traffic, at each --rtts value and on each --shape;"
          + " reports medians and spread of the reduce-stage time, backbone utilisation, the ratio to the physical"
          + " limit and, per link, the bottleneck links' utilisation, the most flows on a link against its"
          + " capacity, tbf drops and the ratio to the generalised limit (max over links of bytes / rate).",
      "Writes a Markdown report (default run/e2e-bench/end-to-end.md; --report names another"
          + " file)."
    })
public final class E2eBenchCommand implements Callable<Integer> {

  /**
   * Gives the testbed options' help this command's defaults ({@link io.wanshuffle.it.TestbedHelp}).
   */
  public static final class Help implements picocli.CommandLine.IModelTransformer {
    @Override
    public picocli.CommandLine.Model.CommandSpec transform(
        picocli.CommandLine.Model.CommandSpec spec) {
      return io.wanshuffle.it.TestbedHelp.withDefaults(spec, null, TestbedOptions.GENERAL_SHAPE);
    }
  }

  @Mixin TestbedOptions net;

  @Mixin FaultOptions faults;

  @Mixin ConcurrentOptions concurrency;

  @Mixin FillOptions fill;

  @Mixin SparkConfOptions sparkConf;

  /** Whether a fault could not be injected or undone in some run. */
  private final CellRuns cellRuns = new CellRuns(this);

  /** The applications that ran together, per cell, in the order they ran. */
  private final List<RunGroup> groups = new ArrayList<>();

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec commandSpec;

  @Option(
      names = "--patterns",
      paramLabel = "PATTERN",
      split = ",",
      defaultValue = "uniform,zipf,fair-poor,fair-poor-grid,trace",
      description =
          "patterns: uniform, zipf, fair-poor (RR-5361 Fig. 3), fair-poor-grid (Fig. 3 widened: one"
              + " long transfer and a grid of short ones), trace, tpch (the TPC-H join of lineitem and orders,"
              + " generated on the map hosts, --mb of rows), both-ways (uniform A to B and Zipf B to A at once;"
              + " maps and reduces on every host); with --concurrent, A+B runs A and B together"
              + " (trace+tpch: the first application replays the trace, the second joins) (default"
              + " ${DEFAULT-VALUE})")
  List<String> patterns;

  @Option(
      names = "--variants",
      paramLabel = "VARIANT",
      split = ",",
      defaultValue = "default,auto,oggp",
      description =
          "default = Spark's sort shuffle; other names are wan-shuffle algorithms, pipelined steps, run"
              + " with the testbed's topology file (ALGORITHM-rackblind: without it, k and δ only, e.g."
              + " auto-rackblind); suffixes set a step option: ALGORITHM/barrier runs it with barrier steps, ALGORITHM/arrival with"
              + " hand-over on arrival, ALGORITHM/predicted with predicted hand-over (the default),"
              + " ALGORITHM/capacity with fixed windows (each link admits its capacity in flows;"
              + " the default), ALGORITHM/adaptive with windows that move with its flows,"
              + " ALGORITHM-rackblind/measured with no rate typed in, ALGORITHM/alone without the"
              + " --arbiter (default ${DEFAULT-VALUE})")
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
      paramLabel = "MS",
      defaultValue = "0,40",
      converter = DurationConverters.WholeMillis.class,
      description =
          "WAN round-trip times: whole milliseconds or durations such as 40ms, comma-separated"
              + " (default ${DEFAULT-VALUE})")
  List<Integer> rtts;

  @Option(
      names = "--shape",
      paramLabel = "OPTIONS",
      description =
          "a testbed shape as testbed options in one argument, e.g. \"--racks 2 --hosts 4"
              + " --rack-uplink 100mbit\" or \"--sites 3 --backbone 100mbit,200mbit,50mbit\""
              + " (repeatable: everything runs on each shape in turn); replaces the command line's --sites,"
              + " --racks, --hosts, --nodes-a, --nodes-b, --nic, --rack-uplink and --backbone")
  List<String> shapes = new ArrayList<>();

  @Option(
      names = "--runs",
      paramLabel = "N",
      defaultValue = "3",
      description = "measured runs per variant (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--mb",
      paramLabel = "MB",
      defaultValue = "150",
      description = "bytes shuffled per run, MB (default ${DEFAULT-VALUE})")
  int mb;

  @Option(
      names = "--cores",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "cores per Worker and executor; with more than 1,"
              + " several reduce tasks of a host fetch at once (default ${DEFAULT-VALUE})")
  int cores;

  @Option(
      names = "--tasks-per-host",
      paramLabel = "N",
      defaultValue = "2",
      description =
          "map tasks per A host and reduce tasks"
              + " (partitions) per B host (default ${DEFAULT-VALUE})")
  int tasksPerHost;

  @Option(
      names = "--warmup",
      paramLabel = "full|small",
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
      paramLabel = "FILE.md",
      description =
          "Markdown report (default: end-to-end.md in --out); an existing report's hand-written"
              + " sections are kept and its table moved under its earlier tables (the published"
              + " report: --report docs/benchmarks/end-to-end.md)")
  Path report;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "run/e2e-bench",
      description = "folder for logs, results and the report (default ${DEFAULT-VALUE})")
  Path out;

  @Option(
      names = "--trace-dir",
      paramLabel = "FILE_OR_DIR",
      description =
          "pattern trace: the Facebook coflow trace file or folder (default: the repository's"
              + " data/coflow-benchmark/, or -Dwanshuffle.coflowTrace)")
  Path traceDir;

  @Option(
      names = "--coflow",
      paramLabel = "ID",
      description =
          "pattern trace: replay this coflow (its id, the first"
              + " field of its line) instead of the largest one with every testbed host taking part")
  Long coflow;

  /** The cells measured so far, their answers checked. */
  private final MeasuredCells cells = new MeasuredCells();

  /** The report, written after every cell. */
  private ReportFile reportFile;

  /** Every pattern's traffic matrix (and how the trace pattern's was made); set by call(). */
  PatternMatrices patternMatrices;

  /** The testbed as the report describes it (its RTT is the table's column). */
  private String described = "";

  /** When the benchmark started, epoch ms. */
  private long startedMs;

  /** The testbed shape of the cells being run, as the report's testbed column names it. */
  private String shapeLabel = "";

  @Override
  public Integer call() {
    checkVariants();
    checkSizes();
    concurrency.check(commandSpec.commandLine(), true);
    if (fill.loadProblem() != null) {
      throw usage(fill.loadProblem());
    }
    List<TestbedSpec> bases = checkedSpecs();
    patternMatrices = new PatternMatrices(mb * 1e6, traceDir, coflow);
    for (TestbedSpec base : bases) {
      rtts.forEach(rtt -> faults.check(commandSpec.commandLine(), base.withRtt(rtt)));
    }
    Map<TestbedSpec, Map<String, double[][]>> matrices = new LinkedHashMap<>();
    double beta = 0;
    for (TestbedSpec base : bases) {
      matrices.put(base, trafficMatrices(base));
      beta = checkPluginSettings(base);
    }
    reportFile = new ReportFile(report != null ? report : out.resolve("end-to-end.md"));
    startedMs = System.currentTimeMillis();
    for (TestbedSpec base : bases) {
      shapeLabel = bases.size() == 1 ? "" : base.describeShape();
      for (int rtt : rtts) {
        runAtRtt(base.withRtt(rtt), matrices.get(base), beta);
      }
    }
    writeFinalReport(bases);
    return exitStatus();
  }

  /**
   * Every variant has known suffixes and names {@code default} or a known algorithm ({@link
   * Variant#problem}).
   *
   * @throws picocli.CommandLine.ParameterException otherwise, or when none is given
   */
  private void checkVariants() {
    String problem = Variant.problem(variants, Algorithms.names());
    if (problem != null) {
      throw usage("--variants: " + problem);
    }
  }

  /**
   * @throws picocli.CommandLine.ParameterException when cores, tasks per host, runs or MB are below
   *     1
   */
  private void checkSizes() {
    if (cores < 1 || tasksPerHost < 1) {
      throw usage(
          "--cores and --tasks-per-host" + " must be >= 1, got " + cores + " and " + tasksPerHost);
    }
    if (runs < 1 || mb < 1) {
      throw usage("--runs and --mb must be >= 1," + " got " + runs + " and " + mb);
    }
  }

  /**
   * The testbeds the options describe (each {@code --shape}, else the command line's testbed
   * options), with every RTT the run will build checked (an RTT out of range fails now, not after
   * the runs of the RTTs before it).
   *
   * @throws picocli.CommandLine.ParameterException naming the option of a bad value
   */
  private List<TestbedSpec> checkedSpecs() {
    List<TestbedSpec> bases = new ArrayList<>();
    try {
      if (shapes.isEmpty()) {
        bases.add(net.spec());
      }
      for (String shape : shapes) {
        bases.add(shapeSpec(shape));
      }
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    for (TestbedSpec base : bases) {
      for (int rtt : rtts) {
        try {
          base.withRtt(rtt);
        } catch (IllegalArgumentException e) {
          throw usage("--rtts: " + e.getMessage());
        }
      }
    }
    return bases;
  }

  /**
   * @param shape a {@code --shape} value
   * @return its testbed with the command line's TCP congestion control and variant ({@link
   *     ShapeOption#parse})
   * @throws IllegalArgumentException naming {@code --shape} and the value when it is not a testbed
   */
  TestbedSpec shapeSpec(String shape) {
    return ShapeOption.parse(shape, net.tcpCongestionControl, net.loopback);
  }

  /**
   * Every pattern's traffic matrix, built once (the trace pattern reads the trace file): an unknown
   * pattern or one the topology cannot hold fails before any run.
   *
   * @return pattern to {@code [A][B]} bytes ({@code [A + B][A + B]} for {@code both-ways}), in
   *     option order
   */
  private Map<String, double[][]> trafficMatrices(TestbedSpec base) {
    try {
      return patternMatrices.all(patterns, base, concurrency.apps());
    } catch (IllegalArgumentException e) {
      throw usage("--patterns: " + e.getMessage());
    }
  }

  /**
   * Checks every wan-shuffle variant's settings as the plugin will, before any testbed starts.
   *
   * @return β of the wan-shuffle variants (the plugin's default unless {@code --conf} sets it), s,
   *     for the steps' setup time
   * @throws picocli.CommandLine.ParameterException naming the key and value the plugin refuses
   */
  private double checkPluginSettings(TestbedSpec base) {
    try {
      double beta = PluginSettings.check(base, "oggp", extraConf).betaSeconds();
      variants.forEach(v -> new Variant(v).settings(base, extraConf));
      return beta;
    } catch (IllegalArgumentException e) {
      throw usage("--conf: " + e.getMessage());
    }
  }

  /**
   * Runs every pattern with every variant on one testbed of {@code spec}, at each {@code --load}:
   * the applications of a pattern in {@link FillOptions#schedule}'s order, each with the busy
   * processes running beside it; a cell is added, printed and reported once its last application
   * ran.
   */
  private void runAtRtt(TestbedSpec spec, Map<String, double[][]> matrices, double beta) {
    try (Experiment ex = startExperiment(spec);
        ZooKeeperServer zk =
            concurrency.startArbiter(ex.testbed().control(), ex.spark().runDir())) {
      TopologyLinks model = TopologyLinks.load(ex.spark().topologyConfig());
      for (int load : fill.loads) {
        for (String pattern : patterns) {
          // per variant, per application of those running together, its runs
          Map<String, List<List<Experiment.Measured>>> apps = new LinkedHashMap<>();
          for (FillOptions.Slot slot : FillOptions.schedule(variants, runs, fill.alternate)) {
            List<Experiment.Measured> group;
            try (MachineLoad busy = MachineLoad.start(load)) {
              group =
                  ConcurrentApps.atOnce(
                      concurrency.apps(),
                      i -> cellRuns.run(ex, spec, pattern, matrices, slot, load, i, zk));
            }
            List<List<Experiment.Measured>> perApp =
                apps.computeIfAbsent(slot.variant(), v -> new ArrayList<>());
            for (int i = 0; i < group.size(); i++) {
              if (perApp.size() <= i) {
                perApp.add(new ArrayList<>());
              }
              perApp.get(i).add(group.get(i));
            }
            if (slot.last()) {
              noteCells(
                  spec, fill.label(shapeLabel, load), pattern, slot, perApp, load, beta, zk, model);
            }
          }
        }
      }
    }
  }

  /**
   * A variant's cells once its last run of a pattern ended: one per application of those that ran
   * together, each with its runs, and with several, their group's figures.
   */
  private void noteCells(
      TestbedSpec spec,
      String label,
      String pattern,
      FillOptions.Slot slot,
      List<List<Experiment.Measured>> perApp,
      int load,
      double beta,
      ZooKeeperServer zk,
      TopologyLinks model) {
    WanShuffleConf settings = new Variant(slot.variant()).settings(spec, extraConf);
    for (int i = 0; i < perApp.size(); i++) {
      String p =
          perApp.size() == 1
              ? pattern
              : pattern + " (app " + (i + 1) + PatternMatrices.partLabel(pattern, i) + ")";
      List<Experiment.Measured> mine = perApp.get(i);
      E2eReport.Cell c =
          cells.add(spec, label, p, slot.variant(), mine, load, beta, model, Rule.of(settings));
      System.out.println(E2eReport.line(c));
    }
    noteGroup(spec, pattern, new Variant(slot.variant()), settings, perApp, zk, model);
    writePartialReport(spec);
  }

  /**
   * Notes the applications of one cell that ran together, run by run: their times and the flows of
   * all of them on the busiest link against the window rule's bound (printed, and reported with
   * {@code --concurrent} or {@code --arbiter}).
   *
   * @param apps per application, its measured runs in order
   */
  private void noteGroup(
      TestbedSpec spec,
      String pattern,
      Variant variant,
      WanShuffleConf settings,
      List<List<Experiment.Measured>> apps,
      ZooKeeperServer zk,
      TopologyLinks model) {
    if (!concurrency.active()) {
      return;
    }
    List<RunGroup> each =
        RunGroup.ofRuns(
            pattern + " RTT " + spec.wanRttMillis() + " ms " + variant.name(),
            variant.isDefault() || variant.alone() || zk == null ? null : concurrency.arbiterName(),
            apps.stream()
                .map(a -> a.stream().flatMap(m -> m.result().runs().stream()).toList())
                .map(runs -> runs.stream().map(RunGroup.Stage::of).toList())
                .toList(),
            apps.stream()
                .map(a -> a.stream().map(Experiment.Measured::captureDir).toList())
                .toList(),
            model,
            settings == null ? null : WindowBound.of(settings, model));
    each.forEach(g -> System.out.println(g.line()));
    groups.addAll(each);
  }

  /**
   * Starts the testbed and Spark for one RTT and notes how the report describes it; samples the
   * senders' TCP connections when asked and the testbed is shaped.
   */
  private Experiment startExperiment(TestbedSpec spec) {
    int rtt = spec.wanRttMillis();
    Path dir =
        shapes.size() <= 1
            ? out.resolve("rtt-" + rtt)
            : out.resolve("shape-" + (shapeIndex(spec) + 1) + "-rtt-" + rtt);
    Experiment ex =
        Experiment.start(
            spec,
            dir,
            concurrency.cluster(ClusterOptions.defaults().withWorkerCores(cores), "640m"));
    described =
        (shapes.size() <= 1
                    ? ex.testbed().describe()
                    : (ex.testbed().shaped()
                            ? "network-namespace testbed"
                            : "loopback testbed, NOT shaped")
                        + ", the shape in the testbed column, WAN RTT "
                        + rtt
                        + " ms, TCP "
                        + spec.tcpCongestionControl())
                .replace("WAN RTT " + rtt + " ms", "WAN RTT as in the RTT column")
            + (cores == 1 ? "" : ", " + cores + " cores per executor");
    if (!ex.testbed().shaped()) {
      System.out.println(
          "NOTE: loopback variant: the backbone is not shaped; times are not comparable.");
    } else {
      ex.sampleTcp(tcpSample);
    }
    return ex;
  }

  /** The index of a shape among the {@code --shape} values (0 without them). */
  private int shapeIndex(TestbedSpec spec) {
    for (int i = 0; i < shapes.size(); i++) {
      if (shapeSpec(shapes.get(i)).withRtt(spec.wanRttMillis()).equals(spec)) {
        return i;
      }
    }
    return 0;
  }

  private void writePartialReport(TestbedSpec spec) {
    reportFile.write(
        generated(
            described + " (PARTIAL: the benchmark is still running or was interrupted)",
            spec.backboneBitsPerSecond()));
  }

  /** The generated report: the table ({@link E2eReport}) and with --targets the fill sections. */
  private String generated(String testbed, double backboneBits) {
    return E2eReport.markdown(
            cells.cells(), testbed, (System.currentTimeMillis() - startedMs) / 1000.0, backboneBits)
        + (fill.targets ? FillReport.markdown(cells.fills()) : "")
        + ConcurrentReport.markdown("median reduce stage", groups);
  }

  /** The report with the command that made it, and the wrong answers if any. */
  private void writeFinalReport(List<TestbedSpec> bases) {
    String md =
        generated(
            described
                + "; command: `"
                + GeneratedBy.command(
                    this, bases.get(0), patternMatrices.traceDescription() != null)
                + "`"
                + (patternMatrices.traceDescription() == null
                    ? ""
                    : ". Pattern trace: " + patternMatrices.traceDescription()),
            bases.get(0).backboneBitsPerSecond());
    List<String> wrongAnswers = cells.wrongAnswers();
    if (!wrongAnswers.isEmpty()) {
      md +=
          "\n**WRONG ANSWERS** (a variant's reduce tasks did not read exactly the records the first variant read):\n"
              + wrongAnswers.stream().map(w -> "- " + w + "\n").reduce("", String::concat);
    }
    reportFile.write(md);
    System.out.println("wrote " + reportFile.file());
  }

  /**
   * @return what the runs measured, their answers checked, and the faults injected (after {@link
   *     #call()})
   */
  E2eOutcome outcome() {
    return new E2eOutcome(cells, cellRuns);
  }

  private int exitStatus() {
    return outcome().exitStatus("e2e-bench");
  }

  private picocli.CommandLine.ParameterException usage(String message) {
    return new picocli.CommandLine.ParameterException(commandSpec.commandLine(), message);
  }
}
