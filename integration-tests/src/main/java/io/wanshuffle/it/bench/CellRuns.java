package io.wanshuffle.it.bench;

import io.wanshuffle.it.concurrent.ZooKeeperServer;
import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.PluginSettings;
import io.wanshuffle.it.fault.FaultOptions;
import io.wanshuffle.it.fault.FaultRun;
import io.wanshuffle.it.fault.FaultSession;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.StartTogether;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TestbedSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The applications of {@code e2e-bench}'s cells: one Spark application per cell and slot, its
 * settings from the variant and the command's options, the faults of {@code --fault} armed around
 * the first application of those running together and undone after it.
 */
final class CellRuns {
  private final E2eBenchCommand c;
  private boolean faultFailed;

  /** Per cell ("pattern|variant"), the faults of its runs in the order they ran. */
  private final Map<String, List<FaultRun>> injected = new java.util.HashMap<>();

  /**
   * @param c the command whose options the applications take
   */
  CellRuns(E2eBenchCommand c) {
    this.c = c;
  }

  /**
   * @return true once a fault could not be injected or undone
   */
  boolean faultFailed() {
    return faultFailed;
  }

  /**
   * @param pattern a cell's pattern
   * @param variant its variant's name
   * @return the faults of its measured runs, in the order they ran (empty without {@code --fault})
   */
  List<FaultRun> faultsOf(String pattern, String variant) {
    return List.copyOf(injected.getOrDefault(pattern + "|" + variant, List.of()));
  }

  /**
   * Runs one application of a cell: one Spark application that shuffles its part's matrix (the
   * pattern's part this application runs, {@link PatternMatrices#partOf}; for {@code tpch} the
   * TPC-H join of about the same bytes) with a warm-up run and the slot's measured runs.
   *
   * @param matrices every part's matrix ({@link PatternMatrices#all})
   */
  Experiment.Measured run(
      Experiment ex,
      TestbedSpec spec,
      String pattern,
      Map<String, double[][]> matrices,
      FillOptions.Slot slot,
      int load,
      int app,
      ZooKeeperServer zk) {
    Variant variant = new Variant(slot.variant());
    Map<String, String> conf = ex.baseConf("640m");
    conf.put("spark.shuffle.compress", "false");
    c.sparkConf.applyTo(conf);
    if (!variant.isDefault()) {
      PluginSettings.putAll(conf, ex.wanShuffleConf(variant.algorithm()));
      PluginSettings.putAll(conf, c.extraConf);
      conf.putAll(variant.stepSettings());
    }
    conf.putAll(
        c.concurrency.appConf(
            ex.testbed().workers().size(),
            c.cores,
            !variant.isDefault(),
            variant.alone() ? null : zk));
    String mine = PatternMatrices.partOf(pattern, app);
    String runName = c.concurrency.appName(pattern + "-" + variant.fileName(), app);
    String run =
        "-rtt"
            + spec.wanRttMillis()
            + (load == 0 ? "" : "-load" + load)
            + (c.fill.alternate ? "-r" + slot.round() : "");
    String tag = runName + run;
    if (c.concurrency.apps() > 1) {
      // the group's applications begin each measured run together (their warm-ups differ)
      conf.put(
          StartTogether.DIR_KEY,
          ex.spark()
              .runDir()
              .resolveSibling("together-" + ProcessHandle.current().pid())
              .resolve(pattern + "-" + variant.fileName() + run)
              .toAbsolutePath()
              .toString());
      conf.put(StartTogether.APPS_KEY, Integer.toString(c.concurrency.apps()));
    }
    Path faultsDir = ex.spark().runDir().resolveSibling("faults");
    // one application of those running together injects the faults (they act on the testbed)
    FaultSession injecting =
        app == 0
            ? c.faults.arm(
                ex.testbed(),
                conf,
                faultsDir.resolve(tag + ".signal"),
                FaultSession.Windows.MEASURED_RUNS)
            : null;
    boolean bothWays = mine.equals(E2eReport.BOTH_WAYS);
    boolean tpch = mine.equals(PatternMatrices.TPCH);
    double[][] matrix = tpch ? null : matrices.get(mine); // the join is run by its scale
    int all = spec.mapHosts() + spec.nodesB();
    JobRequest req =
        new JobRequest(
            runName,
            conf,
            Node.addresses(ex.testbed().mapSide()),
            Node.addresses(ex.testbed().reduceSide()),
            tpch ? "tpch" : bothWays ? JobRequest.MATRIX_ALL : "matrix",
            tpch ? c.patternMatrices.tpchScale() : 0,
            c.tasksPerHost * (bothWays ? all : spec.mapHosts()),
            c.tasksPerHost * (bothWays ? all : spec.nodesB()),
            matrix,
            64 * 1024,
            slot.runs(),
            true,
            0,
            c.warmup == E2eBenchCommand.Warmup.full);
    try {
      return ex.run(tag, req, 0);
    } finally {
      if (injecting != null) {
        List<FaultRun> runs = FaultOptions.finish(injecting);
        FaultOptions.write(faultsDir.resolve(tag + ".faults.json"), runs);
        faultFailed |= runs.stream().anyMatch(FaultRun::failed);
        injected
            .computeIfAbsent(pattern + "|" + slot.variant(), k -> new ArrayList<>())
            .addAll(runs);
      }
    }
  }
}
