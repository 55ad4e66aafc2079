package io.wanshuffle.cli.plan;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.wanshuffle.cli.AsciiInteger;
import io.wanshuffle.cli.CliVersion;
import io.wanshuffle.cli.DecimalNumber;
import io.wanshuffle.cli.InputException;
import io.wanshuffle.cli.OutputFormat;
import io.wanshuffle.scheduler.InvalidScheduleException;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.alg.LiquidStepScheduler;
import io.wanshuffle.scheduler.topology.LinkCapacityValidator;
import io.wanshuffle.scheduler.topology.LinkLowerBound;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import io.wanshuffle.scheduler.topology.Topology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code plan}: computes the KPBS schedule of a traffic matrix and prints it.
 *
 * <pre>
 * ./wan-shuffle plan --matrix FILE.csv --k K --beta SECONDS [--rate BYTES_PER_S]
 *   [--delta-senders d1,d2,...] [--delta-receivers d1,d2,...] [--algorithm NAME]
 *   [--format json|text]
 * ./wan-shuffle plan --matrix FILE.csv --topology TOPOLOGY.conf --beta SECONDS
 *   [--algorithm liquid|NAME] [--format json|text]
 * </pre>
 *
 * Amounts in the CSV ({@link MatrixCsv}) are seconds at base speed, or bytes when {@code --rate}
 * gives the bytes/s of one flow (seconds = bytes / rate). The schedule is validated against the
 * instance ({@link Schedule#validate}) before anything is printed. Exit status 0 on success, 2 with
 * one stderr line on bad input, 1 if the algorithm returns an invalid schedule.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    header = "Split a traffic matrix into KPBS steps and print the schedule.",
    versionProvider = CliVersion.class,
    description =
        "Split a traffic matrix into KPBS steps (at most k transfers per step, β per"
            + " step) and print the schedule.",
    sortOptions = false)
public final class PlanCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  private final Function<String, StepScheduler> algorithms;

  /** The command as the CLI runs it: algorithms come from {@link Algorithms#byName}. */
  public PlanCommand() {
    this(Algorithms::byName);
  }

  /**
   * @param algorithms resolves {@code --algorithm} names; throws IllegalArgumentException (with the
   *     known names) for an unknown one
   */
  PlanCommand(Function<String, StepScheduler> algorithms) {
    this.algorithms = algorithms;
  }

  @Option(
      names = "--matrix",
      required = true,
      paramLabel = "FILE.csv",
      description =
          "Traffic matrix: one row per sender, one comma-separated column per receiver;"
              + " '#' lines ignored; optional '#senders: h1,...' and '#receivers: h1,...' header.")
  Path matrix;

  @Option(
      names = "--k",
      paramLabel = "K",
      converter = AsciiInteger.class,
      description =
          "Maximum number of transfers per step (backbone capacity in flows), >= 1."
              + " Required unless --topology gives it.")
  Integer k;

  @Option(
      names = "--topology",
      paramLabel = "FILE",
      description =
          "Topology configuration (docs/topology.md): hosts -> /cluster/rack and link"
              + " rates. The matrix then names its hosts ('#senders:'/'#receivers:' lines) and holds"
              + " bytes; k, δ and the base speed come from the topology; --algorithm liquid keeps"
              + " every link within its capacity.")
  Path topology;

  @Option(
      names = "--beta",
      required = true,
      paramLabel = "SECONDS",
      converter = DecimalNumber.class,
      description = "Setup delay paid once per step, seconds, >= 0.")
  double beta;

  @Option(
      names = "--rate",
      paramLabel = "BYTES_PER_S",
      converter = DecimalNumber.class,
      description =
          "Rate of one flow in bytes/s; when given, the matrix amounts are bytes"
              + " (seconds = bytes / rate). Without it they are seconds.")
  Double rate;

  @Option(
      names = "--delta-senders",
      paramLabel = "d1,d2,...",
      description =
          "δ of each sender (one per row, integers >= 1): transfers it may take part in"
              + " per step. Default 1 (1-port).")
  String deltaSenders;

  @Option(
      names = "--delta-receivers",
      paramLabel = "d1,d2,...",
      description = "δ of each receiver (one per column, integers >= 1). Default 1.")
  String deltaReceivers;

  @Option(
      names = "--algorithm",
      paramLabel = "NAME",
      defaultValue = "auto",
      description =
          "Step scheduler: auto (default), ggp, oggp, dggp, heuristic-weights,"
              + " heuristic-degrees, exact, liquid (link-capacity aware with --topology; NICs and backbone"
              + " only without).")
  String algorithm;

  @Option(
      names = "--format",
      paramLabel = "json|text",
      defaultValue = "text",
      description = "Output: text (default, for people) or json (one JSON object).")
  OutputFormat format;

  /**
   * Reads the matrix, schedules it and prints the result to the command's stdout.
   *
   * @return 0 on success
   * @throws InputException on bad input (file, line, column or option at fault)
   * @throws IllegalStateException if the algorithm returns a schedule that does not validate
   */
  @Override
  public Integer call() throws Exception {
    Plan plan = plan();
    if (!Double.isFinite(plan.cost()) || !Double.isFinite(plan.bound().eta())) {
      throw InputException.option(
          "--beta",
          beta
              + " s: the schedule's cost (Σ β + step durations) or the η lower"
              + " bound is not a finite number of seconds; β or the amounts are too large");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format == OutputFormat.json) {
      // streamed to stdout, not built as one string: a heuristic's schedule of a large dense matrix
      // is hundreds of MB
      ObjectMapper json =
          new ObjectMapper()
              .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
              .disable(com.fasterxml.jackson.core.JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      json.writeValue(out, PlanJson.of(plan));
      out.println();
    } else {
      TextReport.print(plan, matrix.toString(), out);
    }
    out.flush();
    return 0;
  }

  /** Validates the options, reads the input and computes the plan; prints nothing. */
  Plan plan() {
    for (Object[] o : new Object[][] {{"--matrix", matrix}, {"--topology", topology}}) {
      if (o[1] != null && o[1].toString().isBlank()) {
        throw InputException.option((String) o[0], "is empty: give a file");
      }
    }
    if (topology != null) {
      return planOnTopology();
    }
    if (k == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Missing required option: '--k=K'");
    }
    if (k < 1) {
      throw InputException.option("--k", "must be an integer >= 1, got " + k);
    }
    if (!(beta >= 0) || Double.isInfinite(beta)) {
      throw InputException.option("--beta", "must be a finite number of seconds >= 0, got " + beta);
    }
    if (rate != null && (!(rate > 0) || Double.isInfinite(rate))) {
      throw InputException.option("--rate", "must be a finite number of bytes/s > 0, got " + rate);
    }
    StepScheduler scheduler;
    try {
      scheduler = algorithms.apply(algorithm);
    } catch (IllegalArgumentException e) {
      throw InputException.option("--algorithm", e.getMessage());
    }
    MatrixFile input = MatrixCsv.read(matrix);
    TrafficMatrix seconds;
    try {
      seconds = rate == null ? input.amounts() : input.amounts().inSecondsAt(rate);
    } catch (IllegalArgumentException e) {
      throw InputException.option(
          "--rate",
          rate + " bytes/s turns the matrix into seconds that overflow: " + e.getMessage());
    }
    int[] ds = deltas("--delta-senders", deltaSenders, seconds.rows(), "senders (rows)");
    int[] dr = deltas("--delta-receivers", deltaReceivers, seconds.cols(), "receivers (columns)");
    Platform platform = Platform.of(k, beta, ds, dr);
    Schedule schedule;
    try {
      schedule = scheduler.schedule(seconds, platform);
    } catch (IllegalArgumentException e) {
      throw InputException.option("--algorithm", scheduler.name() + ": " + e.getMessage());
    }
    try {
      schedule.validate(seconds, platform);
    } catch (InvalidScheduleException e) {
      throw new IllegalStateException(
          "algorithm " + scheduler.name() + " returned an invalid schedule: " + e.getMessage(), e);
    }
    return new Plan(
        input,
        seconds,
        platform,
        scheduler.name(),
        schedule,
        LowerBound.of(seconds, platform),
        null,
        Plan.bruteForce(seconds, platform));
  }

  /**
   * {@code --topology}: hosts from the matrix header, k, δ and base speed from the topology; the
   * {@code liquid} algorithm gets the link network, others the rack-blind KPBS platform.
   */
  private Plan planOnTopology() {
    for (Object[] o :
        new Object[][] {
          {"--k", k},
          {"--rate", rate},
          {"--delta-senders", deltaSenders},
          {"--delta-receivers", deltaReceivers}
        }) {
      if (o[1] != null) {
        throw InputException.option(
            (String) o[0],
            "cannot be combined with --topology (the"
                + " topology's link rates give k, δ and the base speed)");
      }
    }
    if (!(beta >= 0) || Double.isInfinite(beta)) {
      throw InputException.option("--beta", "must be a finite number of seconds >= 0, got " + beta);
    }
    MatrixFile input = MatrixCsv.read(matrix);
    if (!input.hasHostNames()) {
      throw InputException.at(
          matrix.toString(),
          1,
          "with --topology the matrix must name its hosts:"
              + " line 1 '#senders: h1,h2,...', line 2 '#receivers: h1,h2,...'");
    }
    LinkNetwork network;
    try {
      network =
          Topology.load(topology)
              .network(input.senderNames(), input.receiverNames(), input.amounts());
    } catch (IllegalArgumentException e) {
      throw new InputException(e.getMessage());
    }
    TrafficMatrix seconds;
    try {
      seconds = input.amounts().inSecondsAt(network.baseSpeed());
    } catch (IllegalArgumentException e) {
      throw new InputException(
          topology
              + ": the base speed "
              + network.baseSpeed()
              + " bytes/s turns the matrix"
              + " into seconds that overflow: "
              + e.getMessage());
    }
    Platform platform = network.platform(beta);
    boolean liquid = algorithm.equalsIgnoreCase("liquid");
    StepScheduler scheduler;
    try {
      scheduler = liquid ? new LiquidStepScheduler(network) : algorithms.apply(algorithm);
    } catch (IllegalArgumentException e) {
      throw InputException.option("--algorithm", e.getMessage());
    }
    Schedule schedule;
    try {
      schedule = scheduler.schedule(seconds, platform);
    } catch (IllegalArgumentException e) {
      throw InputException.option("--algorithm", scheduler.name() + ": " + e.getMessage());
    }
    try {
      schedule.validate(seconds, platform);
      if (liquid) {
        LinkCapacityValidator.validate(schedule, seconds, network);
      }
    } catch (InvalidScheduleException e) {
      throw new IllegalStateException(
          "algorithm " + scheduler.name() + " returned an invalid schedule: " + e.getMessage(), e);
    }
    // liquid keeps every link and k (the KPBS view's bound on a step), so its bound counts both
    return new Plan(
        input,
        seconds,
        platform,
        scheduler.name(),
        schedule,
        liquid
            ? LinkLowerBound.of(seconds, network.constrainedBy(platform), beta)
            : LowerBound.of(seconds, platform),
        liquid ? 0 : LinkCapacityValidator.overloads(schedule, network),
        Plan.bruteForce(seconds, network));
  }

  private static int[] deltas(String option, String list, int n, String what) {
    int[] d = new int[n];
    if (list == null) {
      Arrays.fill(d, 1);
      return d;
    }
    String[] parts = list.split(",", -1);
    if (parts.length != n) {
      throw InputException.option(
          option, "has " + parts.length + " values but the matrix has " + n + " " + what);
    }
    for (int i = 0; i < n; i++) {
      String p = parts[i].strip();
      try {
        d[i] = AsciiInteger.parse(p);
      } catch (NumberFormatException e) {
        throw InputException.option(
            option, "value " + (i + 1) + " (1-based) '" + p + "' is not an integer");
      }
      if (d[i] < 1) {
        throw InputException.option(
            option, "value " + (i + 1) + " (1-based) must be >= 1, got " + d[i]);
      }
    }
    return d;
  }
}
