package io.wanshuffle.it.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.fault.ReduceStageSignal;
import io.wanshuffle.it.spark.SparkCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The driver program of a testbed run, started by the orchestrator on the control host (inside its
 * network namespace on the shaped testbed): reads a {@link JobRequest} (JSON), runs the job {@code
 * runs} times in one Spark application, and writes a {@link JobResult} (JSON).
 *
 * <p>Marks each measured run in the fault signal file when the settings name one ({@link
 * ReduceStageSignal#mark}). Prints {@value #REDUCE_STARTED} on standard output when the first
 * reduce task of the first measured run starts, so the orchestrator can inject a fault mid-stage.
 * Applications started together begin each measured run together ({@link StartTogether}).
 */
public final class DriverMain {
  /** Marker line printed when the first measured reduce stage starts its first task. */
  public static final String REDUCE_STARTED = "WANSHUFFLE-EVENT reduce-started";

  private static final ObjectMapper JSON = new ObjectMapper();

  private DriverMain() {}

  /**
   * @param args {@code <request.json> <result.json>}
   * @throws Exception when the job fails (the driver exits non-zero and the orchestrator reports
   *     its log)
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: DriverMain <request.json> <result.json>");
      System.exit(2);
    }
    JobRequest req = JSON.readValue(Path.of(args[0]).toFile(), JobRequest.class);
    long t0 = System.currentTimeMillis();
    SparkConf conf = new SparkConf(false).setAppName(req.appName());
    req.sparkConf().forEach(conf::set);
    Placement.configure(conf); // map tasks stay on A, reduce tasks on B
    try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
      Set<String> hosts = new LinkedHashSet<>(req.aHosts());
      hosts.addAll(req.bHosts());
      SparkCluster.awaitExecutors(jsc.sc(), hosts, Duration.ofSeconds(120));
      long startup = System.currentTimeMillis() - t0;
      StageRecorder rec = new StageRecorder();
      jsc.sc().addSparkListener(rec);
      if (req.warmup()) {
        runOnce(jsc, rec, req, true);
      }
      List<RunResult> runs = new ArrayList<>();
      for (int r = 0; r < req.runs(); r++) {
        StartTogether.await(req.sparkConf(), req.appName(), r);
        ReduceStageSignal.mark(req.sparkConf(), ReduceStageSignal.BEGIN);
        runs.add(runOnce(jsc, rec, req, false));
        ReduceStageSignal.mark(req.sparkConf(), ReduceStageSignal.END);
        System.out.printf("RUN %d reduce stage %.1f s%n", r + 1, runs.get(r).reduceSeconds());
      }
      JSON.writeValue(Path.of(args[1]).toFile(), new JobResult(req.appName(), startup, runs));
    }
  }

  private static RunResult runOnce(
      JavaSparkContext jsc, StageRecorder rec, JobRequest req, boolean warmup) throws Exception {
    rec.clear();
    List<String> answer;
    boolean small = warmup && !req.fullWarmup();
    int reduceParts = req.reducePartitions();
    if (!warmup && req.killExecutorOnB() > 0) {
      rec.onFirstReduceTask(
          () -> {
            System.out.println(REDUCE_STARTED);
            System.out.flush();
          });
    }
    switch (req.job()) {
      case "tpch":
        {
          double scale = small ? Math.min(req.tpchScale(), 0.005) : req.tpchScale();
          answer =
              TpchJoinQuery.answer(
                  TpchJoinQuery.build(
                          jsc, scale, req.mapPartitions(), reduceParts, req.aHosts(), req.bHosts())
                      .collect());
          break;
        }
      case "matrix":
      case JobRequest.MATRIX_ALL:
        {
          double[][] m = req.matrixBytes();
          if (small) {
            m = new double[m.length][m[0].length];
            for (double[] row : m) {
              java.util.Arrays.fill(row, 1 << 20);
            }
          }
          answer =
              new ArrayList<>(
                  MatrixShuffleJob.build(
                          jsc,
                          m,
                          req.recordBytes(),
                          req.mapPartitions(),
                          reduceParts,
                          req.senderHosts(),
                          req.receiverHosts())
                      .collect());
          answer.sort(null);
          break;
        }
      default:
        throw new IllegalArgumentException(
            "job '" + req.job() + "' is unknown (tpch, matrix or matrix-all)");
    }
    jsc.sc().listenerBus().waitUntilEmpty(30_000);
    Map<Integer, StageRecorder.Stage> stages = rec.snapshot();
    int resultStage = stages.keySet().stream().mapToInt(Integer::intValue).max().orElseThrow();
    StageRecorder.Stage red = stages.get(resultStage);
    long mapStart = Long.MAX_VALUE;
    long mapEnd = 0;
    for (Map.Entry<Integer, StageRecorder.Stage> e : stages.entrySet()) {
      if (e.getKey() != resultStage) {
        mapStart = Math.min(mapStart, e.getValue().submittedMs);
        mapEnd = Math.max(mapEnd, e.getValue().completedMs);
      }
    }
    String[] reducerHost = ShuffleMatrix.reducerHosts(red.spans, reduceParts);
    List<String> senders = req.senderHosts();
    List<String> receivers = req.receiverHosts();
    long[][] matrix =
        ShuffleMatrix.of(
            ShuffleMatrix.shuffleIds(stages), reduceParts, reducerHost, senders, receivers);
    long[] sent = new long[senders.size()];
    for (Map.Entry<Integer, StageRecorder.Stage> e : stages.entrySet()) {
      if (e.getKey() != resultStage) {
        for (int i = 0; i < sent.length; i++) {
          sent[i] += e.getValue().writtenByHost.getOrDefault(senders.get(i), 0L);
        }
      }
    }
    long[] received = new long[receivers.size()];
    for (int j = 0; j < received.length; j++) {
      received[j] = red.remoteReadByHost.getOrDefault(receivers.get(j), 0L);
    }
    return new RunResult(
        answer,
        mapStart,
        mapEnd,
        red.submittedMs,
        red.completedMs,
        red.tasks,
        red.fetchWaitMs,
        red.remoteBytes,
        red.localBytes,
        red.remoteBytesToDisk,
        senders,
        receivers,
        matrix,
        sent,
        received,
        List.copyOf(red.spans),
        red.failed);
  }
}
