package io.wanshuffle.it.bench;

import io.wanshuffle.it.app.RunNetwork;
import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.demo.Prediction;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.net.TcpTrace;
import io.wanshuffle.it.net.TestbedSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end benchmark's figures and report: one {@link Cell} per pattern, RTT and variant, the
 * steps' setup time S x β of a run's traffic matrix (S = steps of the OGGP schedule, the
 * 2-approximation of Cohen, Jeannot, Padoy and Wagner, IEEE TPDS 2006, sec. 6.3), and the Markdown
 * table with its legend ({@code docs/benchmarks/end-to-end.md}).
 */
final class E2eReport {
  /** The pattern that crosses the backbone both ways ({@link Patterns#bothWays}). */
  static final String BOTH_WAYS = "both-ways";

  private E2eReport() {}

  /**
   * One measured cell: a testbed shape, a pattern, an RTT, a variant, its runs.
   *
   * @param testbed the testbed's shape in words when the benchmark ran several ({@code --shape}),
   *     else empty
   * @param setupSeconds per run, the steps' setup time S x β of the measured traffic matrix: S =
   *     steps of the OGGP schedule on the testbed's platform (the papers' reference
   *     2-approximation), β = the wan-shuffle variants' configured set-up delay, s; the same for
   *     every variant of a pattern
   * @param stalls per run, the cross-cluster flows stalled by a small congestion window during the
   *     reduce stage ({@link TcpTrace#stalls}); empty without {@code --tcp-sample}
   * @param links per run, its links over the reduce stage; empty when not measured
   * @param network per measured run, its cross-site transfer phase measured and predicted, the
   *     measured β and rates ({@link RunNetwork}); empty when not read
   */
  record Cell(
      String testbed,
      String pattern,
      int rtt,
      String variant,
      List<Comparison.Figures> runs,
      List<Double> setupSeconds,
      List<Integer> stalls,
      List<LinkRun> links,
      List<RunNetwork> network) {

    /** Copies the network figures (null: none). */
    Cell {
      network = network == null ? List.of() : List.copyOf(network);
    }

    /** A cell without network figures; the other parameters as in the record. */
    Cell(
        String testbed,
        String pattern,
        int rtt,
        String variant,
        List<Comparison.Figures> runs,
        List<Double> setupSeconds,
        List<Integer> stalls,
        List<LinkRun> links) {
      this(testbed, pattern, rtt, variant, runs, setupSeconds, stalls, links, List.of());
    }

    /**
     * A cell of the only testbed shape, without link figures; the other parameters as in the
     * record.
     */
    Cell(
        String pattern,
        int rtt,
        String variant,
        List<Comparison.Figures> runs,
        List<Double> setupSeconds,
        List<Integer> stalls) {
      this("", pattern, rtt, variant, runs, setupSeconds, stalls, List.of());
    }

    /**
     * @return the cell's key without its variant: testbed, pattern, RTT
     */
    String where() {
      return testbed + "/" + pattern + "/" + rtt;
    }
  }

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

  /**
   * @param v values, at least one
   * @return their median (the mean of the middle two for an even count)
   */
  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /**
   * @param v values, at least one
   * @return (max - min) / median
   */
  static double spread(double[] v) {
    return (Arrays.stream(v).max().orElse(0) - Arrays.stream(v).min().orElse(0)) / median(v);
  }

  /**
   * @return the console line of a finished cell: its reduce-stage times and, when sampled, its
   *     stalled flows
   */
  static String line(Cell c) {
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

  /**
   * The link columns of a cell: against the rack-blind run of its algorithm, against the
   * generalised limit, the bottleneck links' utilisation, the most flows on a link against its
   * capacity, the tbf drops.
   *
   * @param c the cell
   * @param med its reduce-stage median, s
   * @param medians every cell's reduce-stage median by {@link Cell#where()} and variant
   * @return the columns, each ending with {@code |}
   */
  static String linkColumns(Cell c, double med, Map<String, Double> medians) {
    Double blind =
        c.variant().equals("default") || c.variant().contains(PluginSettings.RACK_BLIND)
            ? null
            : medians.get(c.where() + "/" + rackBlind(c.variant()));
    String vsBlind =
        blind == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * (med - blind) / blind);
    if (c.links().isEmpty()) {
      return " " + vsBlind + " | - | - | - | - |";
    }
    double[] ratios = new double[c.links().size()];
    for (int i = 0; i < ratios.length; i++) {
      double limit = c.links().get(i).limit().seconds();
      ratios[i] = limit > 0 ? c.runs().get(i).reduceSeconds() / limit : 0;
    }
    LinkRun first = c.links().get(0);
    List<String> bottlenecks = new java.util.ArrayList<>();
    for (String link : first.bottlenecks()) {
      double[] u =
          c.links().stream()
              .map(r -> r.utilisation(link))
              .filter(x -> x != null)
              .mapToDouble(Double::doubleValue)
              .toArray();
      bottlenecks.add(
          link + (u.length == 0 ? "" : String.format(Locale.ROOT, " %.0f%%", 100 * median(u))));
    }
    double[] drops =
        c.links().stream()
            .map(LinkRun::drops)
            .filter(x -> x != null)
            .mapToDouble(Long::doubleValue)
            .toArray();
    return String.format(
        Locale.ROOT,
        " %s | %s | %s | %s | %s |",
        vsBlind,
        String.format(Locale.ROOT, "%.2f", median(ratios)),
        bottlenecks.isEmpty() ? "-" : String.join(", ", bottlenecks),
        mostFlows(c),
        drops.length == 0 ? "-" : String.format(Locale.ROOT, "%.0f", median(drops)));
  }

  /**
   * @param c a cell
   * @return the most gated flows on one link at once against its capacity in its worst run ({@link
   *     LinkRun#mostFlows}), or "-" when no run was gated
   */
  static String mostFlows(Cell c) {
    return worstRun(c, LinkRun::maxFlowsOverCapacity, LinkRun::mostFlows);
  }

  /**
   * @param c a cell
   * @return the most gated flows on the wire on one link at once against its capacity in its worst
   *     run ({@link LinkRun#mostOnTheWire}), or "-" when no run was gated
   */
  static String mostOnTheWire(Cell c) {
    return worstRun(c, LinkRun::maxWireFlowsOverCapacity, LinkRun::mostOnTheWire);
  }

  /** What {@code says} of the cell's run of the largest {@code by}, or "-" when none has it. */
  private static String worstRun(
      Cell c,
      java.util.function.Function<LinkRun, Double> by,
      java.util.function.Function<LinkRun, String> says) {
    return c.links().stream()
        .filter(r -> by.apply(r) != null)
        .max(java.util.Comparator.comparing(by))
        .map(says)
        .orElse("-");
  }

  /**
   * @return the rack-blind variant of a wan-shuffle variant: {@code auto} -> {@code
   *     auto-rackblind}, {@code auto/barrier} -> {@code auto-rackblind/barrier}
   */
  static String rackBlind(String variant) {
    int slash = variant.indexOf('/');
    return slash < 0
        ? variant + PluginSettings.RACK_BLIND
        : variant.substring(0, slash) + PluginSettings.RACK_BLIND + variant.substring(slash);
  }

  /**
   * @param cells the cells so far, in the order they ran
   * @param testbed the testbed's description and how the report was made
   * @param seconds how long the benchmark has run, s
   * @param backboneBits the backbone rate, bits/s
   * @return the generated part of the report: title, "Generated by" line, legend, table
   */
  static String markdown(List<Cell> cells, String testbed, double seconds, double backboneBits) {
    boolean sampled = cells.stream().anyMatch(c -> !c.stalls().isEmpty());
    boolean links = cells.stream().anyMatch(c -> !c.links().isEmpty());
    boolean shapes = cells.stream().anyMatch(c -> !c.testbed().isEmpty());
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
            links
                ? " Per link (the testbed's topology file, docs/topology.md): generalised limit = max over links"
                    + " of the bytes of the transfers whose route holds the link / its rate; bottleneck links = those"
                    + " within 10 % of that maximum, with their utilisation (bytes on the link's interface counters"
                    + " during the reduce stage / (its rate x the reduce-stage time)), medians over the runs; most"
                    + " flows / capacity = the most gated flows (the plugin's flow log) holding one link at once"
                    + " against its capacity in flows (rate / gcd of the file's rates), the worst run's link; tbf"
                    + " drops = packets every link's tbf dropped over the application, median over the runs;"
                    + " vs rack-blind = against the same algorithm run without the topology file."
                : "")
        .append(
            sampled
                ? " Stalled flows (`--tcp-sample`): per run, the A-to-B TCP connections seen (ss, every 100"
                    + " ms) with data waiting and a congestion window of at most 4 segments during the reduce stage: BBR's"
                    + " PROBE_RTT, which holds a connection whose minimum-RTT estimate is 10 s old to 4 segments for"
                    + " 200 ms plus one round trip.\n\n"
                : "\n\n")
        .append(
            (shapes ? "| testbed " : "")
                + "| pattern | RTT (ms) | variant | reduce stage median (s) | spread | vs default | backbone"
                + " utilisation | reduce / physical limit | reduce / (limit + steps' setup) | TCP retrans (%) |"
                + (links
                    ? " vs rack-blind | reduce / generalised limit | bottleneck links (utilisation) | most flows"
                        + " / capacity | tbf drops |"
                    : "")
                + (sampled ? " stalled flows per run |\n" : "\n")
                + (shapes ? "|---" : "")
                + "|---|---|---|---|---|---|---|---|---|---|"
                + (links ? "---|---|---|---|---|" : "")
                + (sampled ? "---|\n" : "\n"));
    Map<String, Double> defaults = new LinkedHashMap<>();
    Map<String, Double> medians = new LinkedHashMap<>();
    for (Cell c : cells) {
      double med =
          median(c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray());
      medians.put(c.where() + "/" + c.variant(), med);
      if (c.variant().equals("default")) {
        defaults.put(c.where(), med);
      }
    }
    for (Cell c : cells) {
      double[] t = c.runs().stream().mapToDouble(Comparison.Figures::reduceSeconds).toArray();
      double med = median(t);
      double spread = spread(t);
      double util = median(c.runs().stream().mapToDouble(f -> f.meanBitsPerSecond()).toArray());
      double limit =
          median(c.runs().stream().mapToDouble(Comparison.Figures::physicalLimitSeconds).toArray());
      double retrans =
          median(c.runs().stream().mapToDouble(Comparison.Figures::retransPercent).toArray());
      double setup = median(c.setupSeconds().stream().mapToDouble(Double::doubleValue).toArray());
      Double d = defaults.get(c.where());
      String vs =
          d == null || c.variant().equals("default")
              ? "-"
              : String.format(Locale.ROOT, "%+.1f%%", 100 * (med - d) / d);
      if (shapes) {
        sb.append("| ").append(c.testbed()).append(" ");
      }
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
          .append(links ? linkColumns(c, med, medians) : "")
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
    sb.append(prediction(cells));
    return sb.toString();
  }

  /**
   * The prediction section: per cell the cross-site transfer phase measured (the plugin's capture;
   * for the default, the backbone's counters), the plugin's predictions as scheduled and as Spark's
   * default made once per stage at its first plan on its whole traffic, the median |error| of the
   * scheduled prediction against the same run's phase and of the default prediction against the
   * default cell's median phase, the measured β and the backbone sides' measured rates (medians
   * over the runs); "" when no cell has network figures.
   *
   * @param cells the cells
   * @return the section's markdown
   */
  static String prediction(List<Cell> cells) {
    if (cells.stream().allMatch(c -> c.network().isEmpty())) {
      return "";
    }
    Map<String, Double> defaultPhase = new LinkedHashMap<>();
    for (Cell c : cells) {
      if (c.variant().equals("default")) {
        double[] p = values(c, RunNetwork::transferPhaseSeconds);
        if (p.length > 0) {
          defaultPhase.put(c.where(), median(p));
        }
      }
    }
    boolean testbeds = cells.stream().anyMatch(c -> !c.testbed().isEmpty());
    StringBuilder sb =
        new StringBuilder(
            "\n## Prediction\n\nPer cell, medians over the runs: the cross-site transfer phase"
                + " (first cross-site fetch request to last cross-site byte: the plugin's capture, or"
                + " for the default the backbone's counters over the reduce stage), the plugin's"
                + " predictions of the stage's whole traffic (registered and expected tasks) made once,"
                + " at its first plan, as scheduled and as Spark's default (η_o, max-min fair sharing"
                + " on every link) with the network measured so far, |error| of the scheduled"
                + " prediction against the"
                + " same run's phase, |error| of the default prediction against the default cell's"
                + " phase, the measured β and the backbone sides' measured rates.\n\n"
                + (testbeds ? "| testbed " : "")
                + "| pattern | RTT (ms) | variant | transfer phase (s) | predicted scheduled (s) |"
                + " scheduled |error| | predicted default (s) | default |error| | measured β (s) |"
                + " measured backbone rates (Mbit/s) |\n"
                + (testbeds ? "|---" : "")
                + "|---|---|---|---|---|---|---|---|---|---|\n");
    for (Cell c : cells) {
      if (c.network().isEmpty()) {
        continue;
      }
      double[] phase = values(c, RunNetwork::transferPhaseSeconds);
      double[] sched = values(c, RunNetwork::predictedScheduledSeconds);
      double[] dflt = values(c, RunNetwork::predictedDefaultSeconds);
      double[] beta = values(c, RunNetwork::betaSeconds);
      List<Double> errors = new ArrayList<>();
      for (RunNetwork n : c.network()) {
        if (n.transferPhaseSeconds() != null
            && n.predictedScheduledSeconds() != null
            && n.transferPhaseSeconds() > 0) {
          errors.add(
              Math.abs(n.predictedScheduledSeconds() - n.transferPhaseSeconds())
                  / n.transferPhaseSeconds());
        }
      }
      Double dPhase = defaultPhase.get(c.where());
      Map<String, List<Double>> rates = new java.util.TreeMap<>();
      for (RunNetwork n : c.network()) {
        n.measuredRates()
            .forEach(
                (link, r) -> {
                  if (link.startsWith("backbone.")) {
                    rates.computeIfAbsent(link, x -> new ArrayList<>()).add(r);
                  }
                });
      }
      StringBuilder rs = new StringBuilder();
      rates.forEach(
          (link, v) ->
              rs.append(rs.length() == 0 ? "" : ", ")
                  .append(link)
                  .append(
                      String.format(
                          Locale.ROOT,
                          " %.1f",
                          median(v.stream().mapToDouble(Double::doubleValue).toArray())
                              * 8
                              / 1e6)));
      if (testbeds) {
        sb.append("| ").append(c.testbed()).append(' ');
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
              c.pattern(),
              c.rtt(),
              c.variant(),
              sec(phase),
              sec(sched),
              errors.isEmpty()
                  ? "-"
                  : String.format(
                      Locale.ROOT,
                      "%.0f %%",
                      100 * median(errors.stream().mapToDouble(Double::doubleValue).toArray())),
              sec(dflt),
              dflt.length == 0 || dPhase == null || dPhase <= 0
                  ? "-"
                  : String.format(
                      Locale.ROOT, "%.0f %%", 100 * Math.abs(median(dflt) - dPhase) / dPhase),
              beta.length == 0 ? "-" : String.format(Locale.ROOT, "%.3f", median(beta)),
              rs.length() == 0 ? "-" : rs.toString()));
    }
    return sb.toString();
  }

  private static double[] values(Cell c, java.util.function.Function<RunNetwork, Double> f) {
    return c.network().stream()
        .map(f)
        .filter(v -> v != null)
        .mapToDouble(Double::doubleValue)
        .toArray();
  }

  private static String sec(double[] v) {
    return v.length == 0 ? "-" : String.format(Locale.ROOT, "%.2f", median(v));
  }
}
