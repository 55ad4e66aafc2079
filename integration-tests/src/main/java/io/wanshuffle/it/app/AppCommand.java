package io.wanshuffle.it.app;

import io.wanshuffle.cli.units.DurationConverters;
import io.wanshuffle.it.TestbedOptions;
import io.wanshuffle.it.concurrent.ConcurrentApps;
import io.wanshuffle.it.concurrent.ConcurrentOptions;
import io.wanshuffle.it.concurrent.ConcurrentReport;
import io.wanshuffle.it.concurrent.RunGroup;
import io.wanshuffle.it.concurrent.ZooKeeperServer;
import io.wanshuffle.it.experiment.AppRunner;
import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.experiment.Submission;
import io.wanshuffle.it.experiment.Submitted;
import io.wanshuffle.it.experiment.YarnExperiment;
import io.wanshuffle.it.fault.FaultOptions;
import io.wanshuffle.it.fault.FaultRun;
import io.wanshuffle.it.fault.FaultSession;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.links.WindowBound;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.it.spark.SparkHome;
import io.wanshuffle.it.spark.SparkLines;
import io.wanshuffle.it.spark.YarnCluster;
import io.wanshuffle.it.spark.YarnHome;
import io.wanshuffle.spark.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.spark.network.util.JavaUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code wan-shuffle run-app}: runs any Spark application (a jar and its main class) on the testbed
 * with spark-submit, on Spark standalone ({@link Experiment}) or YARN ({@link YarnExperiment},
 * {@code --master yarn}, client or cluster deploy mode), once per variant (Spark's default shuffle,
 * wan-shuffle with an algorithm, with the testbed's topology file or rack-blind) and run, and
 * compares the runs from outside: Spark's event log, the backbone's and every link's counters, the
 * plugin's capture (flows per link against each link's capacity) and the application's stdout.
 * Writes {@code report.md}, {@code report.json} and {@code report.html} ({@link AppReport}; the
 * HTML page through {@code ./wan-shuffle report}'s code).
 */
@Command(
    name = "run-app",
    modelTransformer = AppCommand.Help.class,
    mixinStandardHelpOptions = true,
    header = "Run a Spark application on the testbed: default vs wan-shuffle.",
    sortOptions = false,
    description = {
      "Runs a Spark application on the testbed with spark-submit (Spark standalone in client mode, the driver"
          + " on the control host, one executor per testbed host; or with --master yarn on YARN with dynamic allocation),"
          + " with Spark's default shuffle and with wan-shuffle, and"
          + " compares the runs: time, stages that read shuffle data, bytes across the backbone, retransmissions, the"
          + " plugin's steps and most flows at once, the most flows on any link against its capacity, the busiest"
          + " link's utilisation, and whether stdout was the same. Writes report.md, report.json and report.html.",
      "Application arguments go after '--'. Exits with 1 if a run failed, a --fault could not be"
          + " injected or undone, or (with --check-output) the stdouts differ."
    })
public final class AppCommand implements Callable<Integer> {

  /**
   * Gives the testbed options' help this command's defaults ({@link io.wanshuffle.it.TestbedHelp}).
   */
  public static final class Help implements picocli.CommandLine.IModelTransformer {
    @Override
    public picocli.CommandLine.Model.CommandSpec transform(
        picocli.CommandLine.Model.CommandSpec spec) {
      return io.wanshuffle.it.TestbedHelp.withDefaults(
          spec, DEFAULT_RTT_MS, TestbedOptions.GENERAL_SHAPE);
    }
  }

  /** The variant that runs Spark's sort shuffle. */
  static final String DEFAULT = "default";

  /** {@code --master}: Spark standalone. */
  static final String STANDALONE = "standalone";

  /** {@code --master}: YARN. */
  static final String YARN = "yarn";

  @Spec CommandSpec spec;

  @Mixin TestbedOptions net;

  @Mixin FaultOptions faults;

  @Mixin ConcurrentOptions concurrency;

  @Option(
      names = "--jar",
      paramLabel = "FILE",
      required = true,
      description = "the application's jar")
  Path jar;

  @Option(
      names = "--master",
      paramLabel = "MANAGER",
      defaultValue = STANDALONE,
      description =
          "cluster manager: standalone (a Spark Master and Workers) or yarn (a ResourceManager on the"
              + " control host and a NodeManager per host, Spark "
              + YarnHome.SPARK_VERSION
              + ", dynamic allocation with shuffle tracking; default ${DEFAULT-VALUE})")
  String master;

  @Option(
      names = "--deploy-mode",
      paramLabel = "MODE",
      defaultValue = "client",
      description =
          "client (the driver on the control host) or cluster (with --master yarn: the driver in the"
              + " ApplicationMaster; default ${DEFAULT-VALUE})")
  String deployMode;

  @Option(
      names = "--class",
      paramLabel = "CLASS",
      description = "its main class (default: the jar manifest's Main-Class)")
  String mainClass;

  @Option(
      names = "--variants",
      paramLabel = "VARIANT",
      split = ",",
      defaultValue = "default,auto",
      description =
          "default = Spark's sort shuffle; any other name is a wan-shuffle algorithm"
              + " (spark.wanshuffle.algorithm), e.g. auto, oggp, or none (the plugin capturing without gating),"
              + " run with the testbed's topology file; ALGORITHM-rackblind runs it without (k and δ only), e.g."
              + " auto-rackblind (default ${DEFAULT-VALUE})")
  List<String> variants;

  @Option(
      names = "--runs",
      paramLabel = "N",
      defaultValue = "1",
      description = "runs per variant, interleaved (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description = "Spark configuration of every run, as spark-submit's --conf (repeatable)")
  Map<String, String> conf = new LinkedHashMap<>();

  @Option(
      names = "--plugin-conf",
      paramLabel = "KEY=VALUE",
      description =
          "extra configuration of the wan-shuffle runs only (repeatable), e.g. spark.wanshuffle.k=1")
  Map<String, String> pluginConf = new LinkedHashMap<>();

  @Option(
      names = "--cores",
      paramLabel = "N",
      defaultValue = "1",
      description = "cores per Worker and executor (default ${DEFAULT-VALUE})")
  int cores;

  @Option(
      names = "--executor-memory",
      paramLabel = "SIZE",
      defaultValue = "640m",
      description = "executor memory (default ${DEFAULT-VALUE})")
  String executorMemory;

  @Option(
      names = "--driver-memory",
      paramLabel = "SIZE",
      defaultValue = "1g",
      description = "driver heap (default ${DEFAULT-VALUE})")
  String driverMemory;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "30min",
      description =
          "longest run; past it the run is killed and counted as failed: a duration (90s, 30min,"
              + " 2h) or a number of seconds (default ${DEFAULT-VALUE})",
      converter = DurationConverters.PositiveDuration.class)
  Duration timeout;

  @Option(
      names = "--spark-version",
      paramLabel = "VERSION",
      description =
          "run on this Spark version, MAJOR.MINOR[.PATCH][_SCALA] (e.g. 3.5.7, 3.5.8_2.13, 4.2.0):"
              + " a Spark home of that version from Maven jars and the plugin jar of its line, both"
              + " built on first use; Scala 2.12 for 3.5 and 2.13 for 4.x unless given. Supported lines: 3.5"
              + " (Scala 2.12, 2.13), 4.0, 4.1, 4.2 (Scala 2.13). Default: Spark 4.1.3 as the command"
              + " runs")
  String sparkVersion;

  @Option(
      names = "--check-output",
      description = "exit with 1 when a run's stdout differs from the first run's")
  boolean checkOutput;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "run/app",
      description =
          "folder for logs, event logs, captures, stdouts"
              + " and the report (default ${DEFAULT-VALUE})")
  Path out;

  @Parameters(paramLabel = "APP_ARG", description = "the application's arguments (after '--')")
  List<String> appArgs = new ArrayList<>();

  /**
   * The figures of the runs so far, in the order they ran (read by the tests after {@link
   * #call()}).
   */
  final List<AppFigures> figures = new ArrayList<>();

  /** What the faults did in each run, in the order the runs ran (none without {@code --fault}). */
  final List<List<FaultRun>> faultRuns = new ArrayList<>();

  /** The applications that ran together, per variant and run, in the order they ran. */
  final List<RunGroup> groups = new ArrayList<>();

  /** The WAN round trip when {@code --rtt} is not given, ms: the demo's. */
  static final int DEFAULT_RTT_MS = 40;

  @Override
  public Integer call() throws Exception {
    checkArguments();
    concurrency.check(spec.commandLine(), !master.equals(YARN));
    TestbedSpec tb =
        TestbedOptions.checked(
            spec.commandLine(),
            () ->
                net.startableSpec(
                    DEFAULT_RTT_MS, "the outputs are still compared", System.out::println));
    checkPluginConf(tb);
    faults.check(spec.commandLine(), tb);
    boolean yarn = master.equals(YARN);
    // on YARN the testbed's Spark runs; a --spark-version of that Spark is accepted as it is
    SparkLines.Choice line = yarn ? null : sparkLine();
    boolean withPlugin = variants.stream().anyMatch(v -> !v.equals(DEFAULT));
    SparkHome home = null;
    Path plugin = withPlugin ? (yarn ? YarnHome.pluginJar() : AppJars.pluginJar()) : null;
    if (line != null) {
      home = SparkLines.home(line, System.out::println);
      if (withPlugin) {
        plugin = SparkLines.pluginJar(line.line(), System.out::println);
      }
      System.out.println(
          "Spark "
              + line.version()
              + " (Scala "
              + line.line().scala()
              + ")"
              + (withPlugin
                  ? " with the plugin jar of its line, "
                      + plugin.getFileName()
                      + (line.version().equals(line.line().version())
                          ? ""
                          : " (compiled against " + line.line().version() + ")")
                  : ""));
    }
    figures.clear();
    faultRuns.clear();
    groups.clear();
    long t0 = System.currentTimeMillis();
    String described;
    Path report = out.resolve("report.md");
    Path json = out.resolve("report.json");
    Map<String, Path> captures = new LinkedHashMap<>();
    Map<String, String> hostNames = new LinkedHashMap<>();
    try (AppRunner ex =
            yarn
                ? YarnExperiment.start(
                    tb,
                    out,
                    new YarnCluster.Options(
                        (int) JavaUtils.byteStringAsMb(executorMemory),
                        (int) JavaUtils.byteStringAsMb(driverMemory)),
                    cores,
                    deployMode)
                : Experiment.start(
                    tb,
                    out,
                    concurrency.cluster(
                        ClusterOptions.defaults().withWorkerCores(cores), executorMemory),
                    home);
        ZooKeeperServer zk = concurrency.startArbiter(ex.testbed().control(), out)) {
      described = ex.testbed().describe();
      if (!ex.testbed().shaped()) {
        System.out.println(
            "NOTE: loopback variant: the backbone is not shaped; times are not comparable.");
      }
      Set<String> aHosts = Set.copyOf(Node.addresses(ex.testbed().mapSide()));
      ex.testbed().workers().forEach(n -> hostNames.put(n.address(), n.name()));
      TopologyLinks model = TopologyLinks.load(ex.topologyConfig());
      for (int run = 1; run <= runs; run++) {
        for (String variant : variants) {
          boolean wanShuffle = !variant.equals(DEFAULT);
          Map<String, String> c = ex.clusterConf(executorMemory);
          c.putAll(conf);
          List<Path> jars = List.of();
          if (wanShuffle) {
            PluginSettings.putAll(c, ex.wanShuffleConf(variant));
            PluginSettings.putAll(c, pluginConf);
            jars = List.of(plugin);
          }
          c.putAll(concurrency.appConf(ex.testbed().workers().size(), cores, wanShuffle, zk));
          String name = variant + "-" + run;
          // before the submission copies the settings: arming adds the reduce-stage listener
          FaultSession injecting =
              faults.arm(
                  ex.testbed(),
                  c,
                  out.resolve("faults").resolve(name + ".signal"),
                  FaultSession.Windows.FIRST_REDUCE_STAGE);
          Submission app =
              new Submission(jar.toAbsolutePath(), mainClass, appArgs, c, jars, driverMemory);
          List<Submitted> subs =
              ConcurrentApps.atOnce(
                  concurrency.apps(), i -> ex.submit(concurrency.appName(name, i), app, timeout));
          faultRuns.add(FaultOptions.finish(injecting));
          List<Double> seconds = new ArrayList<>();
          for (int i = 0; i < subs.size(); i++) {
            Submitted s = subs.get(i);
            AppFigures f = AppFigures.of(variant, run, s, aHosts, model);
            figures.add(f);
            seconds.add(f.wallSeconds());
            String label = variant + " run " + run + (subs.size() == 1 ? "" : " app " + (i + 1));
            if (wanShuffle && s.captureDir() != null) {
              captures.put(label, s.captureDir());
            }
            System.out.printf(
                "%s: %s, %.2f s (shuffle-reading stages %.2f s); stdout %s; driver log %s%n",
                label,
                f.failure() == null ? "ok" : "FAILED (" + f.failure() + ")",
                f.wallSeconds(),
                f.shuffleReadStageSeconds(),
                s.stdout(),
                s.driverLog());
          }
          groups.add(
              RunGroup.measure(
                  variant,
                  variant + " run " + run,
                  wanShuffle ? concurrency.arbiterName() : null,
                  seconds,
                  subs.stream().map(Submitted::captureDir).toList(),
                  model,
                  wanShuffle ? windowBound(tb, variant, model) : null));
          if (concurrency.active()) {
            System.out.println(groups.get(groups.size() - 1).line());
          }
          Files.writeString(
              report,
              markdown(
                  header(described + " (PARTIAL: still running or" + " interrupted)", tb, t0)));
          Files.writeString(
              json, ConcurrentReport.json(AppReport.json(figures, faultRuns), groups));
        }
      }
    }
    Files.writeString(report, markdown(header(described, tb, t0)));
    Files.writeString(json, ConcurrentReport.json(AppReport.json(figures, faultRuns), groups));
    Path html =
        AppReport.html(
                header(described, tb, t0).replaceFirst("^# ", "").replace("`", ""),
                captures,
                a -> hostNames.getOrDefault(a, a))
            .write(out.resolve("report.html"));
    System.out.println();
    System.out.println(AppReport.markdown("", figures).strip());
    System.out.println();
    System.out.println(
        "report: "
            + report.toAbsolutePath()
            + ", "
            + json.getFileName()
            + " and "
            + html.getFileName());
    boolean failed = figures.stream().anyMatch(f -> f.failure() != null);
    boolean differs = AppReport.sameOutputAsFirst(figures).contains(false);
    boolean faultFailed = faultRuns.stream().flatMap(List::stream).anyMatch(FaultRun::failed);
    if (faultFailed) {
      System.out.println("ERROR: a fault could not be injected or undone (see report.json)");
    }
    if (differs) {
      System.out.println(
          (checkOutput ? "ERROR" : "NOTE") + ": stdout differs between runs (see the report)");
    }
    return failed || faultFailed || (checkOutput && differs) ? 1 : 0;
  }

  /**
   * @return {@code report.md}: the runs' table, and with {@code --concurrent} or {@code --arbiter}
   *     the applications that ran together
   */
  private String markdown(String header) {
    return AppReport.markdown(header, figures)
        + (concurrency.active()
            ? ConcurrentReport.markdown("spark-submit's wall time", groups)
            : "");
  }

  /**
   * @return the most a link's window may reach over its capacity in the wan-shuffle runs of {@code
   *     variant}, under the window rule their settings put in force, on the testbed's links
   */
  private double windowBound(TestbedSpec tb, String variant, TopologyLinks model) {
    return WindowBound.of(PluginSettings.check(tb, variant, conf, pluginConf), model);
  }

  /**
   * @return the Spark version asked for with {@code --spark-version}, or null
   * @throws ParameterException if it names no supported line (the message lists them)
   */
  private SparkLines.Choice sparkLine() {
    if (sparkVersion == null) {
      return null;
    }
    try {
      return SparkLines.resolve(sparkVersion);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /**
   * @param line a Spark version asked for
   * @return true when it is the YARN testbed's own Spark ({@value YarnHome#SPARK_VERSION}, Scala
   *     2.13), which {@code --master yarn} runs as it is
   */
  static boolean onTheYarnTestbed(SparkLines.Choice line) {
    return line.version().equals(YarnHome.SPARK_VERSION) && line.line().scala().equals("2.13");
  }

  private void checkArguments() {
    if (!Files.isRegularFile(jar)) {
      throw new ParameterException(spec.commandLine(), "--jar: no such file: " + jar);
    }
    SparkLines.Choice line = sparkLine();
    if (line != null && master.equals(YARN) && !onTheYarnTestbed(line)) {
      throw new ParameterException(
          spec.commandLine(),
          "--spark-version "
              + sparkVersion
              + " cannot run with --master "
              + YARN
              + ": the YARN testbed runs Spark "
              + YarnHome.SPARK_VERSION
              + " (Scala 2.13) only, the 4.x line whose spark-yarn jar Maven Central serves");
    }
    if (!master.equals(STANDALONE) && !master.equals(YARN)) {
      throw new ParameterException(
          spec.commandLine(), "--master: use " + STANDALONE + " or " + YARN + ", got " + master);
    }
    if (!deployMode.equals("client") && !(deployMode.equals("cluster") && master.equals(YARN))) {
      throw new ParameterException(
          spec.commandLine(),
          "--deploy-mode: client, or cluster with --master "
              + YARN
              + "; got "
              + deployMode
              + " with --master "
              + master);
    }
    if (runs < 1 || cores < 1) {
      throw new ParameterException(
          spec.commandLine(), "--runs and --cores must be >= 1, got " + runs + " and " + cores);
    }
    List<String> known = new ArrayList<>(io.wanshuffle.scheduler.alg.Algorithms.names());
    known.add(Settings.NONE);
    for (String v : variants) {
      if (!v.equals(DEFAULT) && !known.contains(PluginSettings.algorithm(v))) {
        throw new ParameterException(
            spec.commandLine(),
            "--variants: unknown variant '"
                + v
                + "': use "
                + DEFAULT
                + " or a wan-shuffle algorithm "
                + known
                + " (with "
                + PluginSettings.RACK_BLIND
                + " for its run without the topology file)");
      }
    }
    if (variants.isEmpty() || variants.size() != variants.stream().distinct().count()) {
      throw new ParameterException(
          spec.commandLine(), "--variants: give each variant once, got " + variants);
    }
  }

  /**
   * Validates the wan-shuffle runs' configuration (the testbed's rates, {@code --conf}, {@code
   * --plugin-conf}) as the plugin will at start-up, so that a wrong value stops the command before
   * the testbed starts instead of failing every wan-shuffle run after the default ones.
   *
   * @throws ParameterException naming the key and value the plugin would refuse
   */
  private void checkPluginConf(TestbedSpec tb) {
    for (String v : variants) {
      if (v.equals(DEFAULT)) {
        continue;
      }
      try {
        PluginSettings.check(tb, v, conf, pluginConf);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(
            spec.commandLine(),
            "the wan-shuffle runs' configuration (--conf," + " --plugin-conf): " + e.getMessage());
      }
    }
  }

  /** The report's title and its lines on how it was made, for the testbed {@code shape}. */
  private String header(String described, TestbedSpec shape, long t0) {
    int rtt = shape.wanRttMillis();
    String command =
        "./wan-shuffle run-app --jar "
            + jar
            + (mainClass == null ? "" : " --class " + mainClass)
            + (master.equals(STANDALONE)
                ? ""
                : " --master " + master + " --deploy-mode " + deployMode)
            + " --variants "
            + String.join(",", variants)
            + " --runs "
            + runs
            + " --rtt "
            + rtt
            + TestbedOptions.shapeOptions(shape)
            + (sparkVersion == null ? "" : " --spark-version " + sparkVersion)
            + settings("--conf", conf)
            + settings("--plugin-conf", pluginConf)
            + faults.commandLine()
            + concurrency.commandLine()
            + (appArgs.isEmpty() ? "" : " -- " + String.join(" ", appArgs));
    return "# run-app: "
        + (mainClass == null ? jar.getFileName().toString() : mainClass)
        + "\n\nGenerated by `"
        + command
        + "` on "
        + Instant.now()
        + String.format(
            java.util.Locale.ROOT, " (took %.0f s). ", (System.currentTimeMillis() - t0) / 1000.0)
        + "Testbed: "
        + described
        + ". Runs interleaved (run 1 of every"
        + " variant, then run 2, ...). Times from the application's Spark event log; backbone bytes, peak and TCP"
        + " retransmissions (every host, both ways) from outside Spark over each whole spark-submit run; steps and"
        + " gated flows from the plugin's capture; stdout compared byte for byte. Flows on a link: the most gated"
        + " flows (the plugin's flow log) holding it at once, against its capacity in flows (its rate / the gcd of"
        + " the rates in topology.conf); utilisation: a link's bytes (its interface counters, outside Spark) during"
        + " the shuffle-reading stages / (its rate x their time). report.json has every link of every run.";
  }

  private static String settings(String option, Map<String, String> values) {
    return values.entrySet().stream()
        .map(e -> " " + option + " " + e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining());
  }
}
