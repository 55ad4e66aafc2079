package io.wanshuffle.it.bench;

import io.wanshuffle.it.app.RunNetwork;
import io.wanshuffle.it.demo.Captured;
import io.wanshuffle.it.demo.Comparison;
import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.job.RunResult;
import io.wanshuffle.it.links.LinkRun;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.links.WindowBound;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.capture.FlowCapture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cells of an {@code e2e-bench} run in the order they ran ({@link E2eReport.Cell}: one pattern,
 * variant, testbed shape and RTT), each made from its measured application: per run its figures,
 * the steps' setup time, its stalled flows, its network figures and its links over the reduce
 * stage. Every run's answer is checked against the first run of its pattern on the same shape and
 * RTT (the same records, so the same answer); a different one is a wrong answer.
 */
final class MeasuredCells {
  private final List<E2eReport.Cell> cells = new ArrayList<>();

  /**
   * The cells with their load and bottleneck links' transfer phases, aligned with {@link #cells}.
   */
  private final List<FillCell> fills = new ArrayList<>();

  /** The runs whose answer differed from their pattern's first, as report lines. */
  private final List<String> wrongAnswers = new ArrayList<>();

  /** Per shape, pattern and RTT, the first run ("variant run N") and its answer. */
  private final Map<String, Map.Entry<String, List<String>>> firstAnswers = new HashMap<>();

  /**
   * Adds the cell of one or more measured applications of the same variant (with {@code
   * --alternate}, one per measured run) and checks their runs' answers.
   *
   * @param spec the testbed they ran on
   * @param label the testbed shape and machine load as the report's testbed column names them (""
   *     with one shape on a quiet machine)
   * @param pattern the pattern
   * @param variant the variant's name
   * @param apps the measured applications, in the order they ran
   * @param load busy processes that ran beside them ({@code --load}), 0 for none
   * @param beta the steps' setup time of the wan-shuffle variants, s
   * @param model the testbed's links
   * @param windows the window rule the variant's runs planned under (what a link's flows are marked
   *     against)
   * @return the cell: every application's runs in order
   */
  E2eReport.Cell add(
      TestbedSpec spec,
      String label,
      String pattern,
      String variant,
      List<Experiment.Measured> apps,
      int load,
      double beta,
      TopologyLinks model,
      WindowBound.Rule windows) {
    List<Comparison.Figures> figs = new ArrayList<>();
    List<Double> setups = new ArrayList<>();
    List<Integer> stalls = new ArrayList<>();
    List<LinkRun> links = new ArrayList<>();
    List<RunNetwork> network = new ArrayList<>();
    List<String> bottlenecks = new ArrayList<>();
    List<Double> phase = new ArrayList<>();
    int runNo = 0;
    for (Experiment.Measured r : apps) {
      for (RunResult run : r.result().runs()) {
        figs.add(Comparison.of(variant, run, r.backbone(), spec));
        Captured captured = Captured.read(r.captureDir(), run);
        List<FlowCapture> gated = captured.flows().stream().filter(f -> f.stepId() > 0).toList();
        network.add(runNetwork(captured, r, run));
        LinkRun linkRun =
            LinkRun.of(
                    model,
                    run.trafficMatrix(),
                    run.senders(),
                    run.receivers(),
                    gated.isEmpty() ? null : gated,
                    r.links(),
                    run.reduceStageStartMs(),
                    run.reduceStageEndMs())
                .withWindows(windows);
        links.add(linkRun);
        String bottleneck = linkRun.limit().link();
        bottlenecks.add(bottleneck);
        LinkTrace.Series counters =
            bottleneck == null || r.links() == null ? null : r.links().series().get(bottleneck);
        phase.add(
            counters == null
                ? null
                : TransferPhase.utilisation(
                    counters, run.reduceStageStartMs(), run.reduceStageEndMs()));
        if (r.tcp() != null) {
          stalls.add(r.tcp().stalls(run.reduceStageStartMs(), run.reduceStageEndMs()).size());
        }
        setups.add(
            run.matrixTotal() > 0 ? E2eReport.setupSeconds(run.trafficMatrix(), spec, beta) : 0.0);
        checkAnswer(label, pattern, spec.wanRttMillis(), variant + " run " + ++runNo, run.answer());
      }
    }
    E2eReport.Cell c =
        new E2eReport.Cell(
            label, pattern, spec.wanRttMillis(), variant, figs, setups, stalls, links, network);
    cells.add(c);
    fills.add(new FillCell(c, load, bottlenecks, phase));
    return c;
  }

  /**
   * @return the cells so far with their fill figures, in the order they ran (unmodifiable view)
   */
  List<FillCell> fills() {
    return java.util.Collections.unmodifiableList(fills);
  }

  /**
   * @return the cells so far, in the order they ran (unmodifiable view)
   */
  List<E2eReport.Cell> cells() {
    return java.util.Collections.unmodifiableList(cells);
  }

  /**
   * @return the wrong answers so far, one report line each (unmodifiable view)
   */
  List<String> wrongAnswers() {
    return java.util.Collections.unmodifiableList(wrongAnswers);
  }

  /**
   * @param pattern a pattern
   * @param rtt an RTT, ms
   * @return the answer of the pattern's first run at that RTT on the only (or first) testbed shape
   *     (its reduce tasks' records, one line per partition), or null when none ran
   */
  List<String> firstAnswer(String pattern, int rtt) {
    for (Map.Entry<String, Map.Entry<String, List<String>>> e : firstAnswers.entrySet()) {
      if (e.getKey().endsWith("|" + pattern + "@" + rtt)) {
        return e.getValue().getValue();
      }
    }
    return null;
  }

  /**
   * A run's network figures: from its capture, or for a run without one (Spark's default) its
   * transfer phase from the backbone's counters over the reduce stage.
   */
  private static RunNetwork runNetwork(Captured captured, Experiment.Measured r, RunResult run) {
    RunNetwork n = RunNetwork.fromCaptures(captured.stages());
    if (n.transferPhaseSeconds() == null && r.backbone() != null) {
      return new RunNetwork(
          RunNetwork.fromBackbone(
              r.backbone(), List.of(new long[] {run.reduceStageStartMs(), run.reduceStageEndMs()})),
          null,
          null,
          null,
          Map.of());
    }
    return n;
  }

  /**
   * Every variant and run of a pattern on one testbed shape shuffles the same records: its answer
   * must be the one of the pattern's first run on that shape at this RTT; a different one is noted
   * as a wrong answer. Another shape has other hosts, so other records and another answer.
   */
  private void checkAnswer(String shape, String pattern, int rtt, String run, List<String> answer) {
    Map.Entry<String, List<String>> first =
        firstAnswers.putIfAbsent(shape + "|" + pattern + "@" + rtt, Map.entry(run, answer));
    if (first != null && !first.getValue().equals(answer)) {
      String what =
          (shape.isEmpty() ? "" : shape + ": ")
              + pattern
              + " at RTT "
              + rtt
              + " ms: "
              + run
              + " answered differently from "
              + first.getKey();
      wrongAnswers.add(what);
      System.out.println("WRONG ANSWER: " + what);
    }
  }
}
