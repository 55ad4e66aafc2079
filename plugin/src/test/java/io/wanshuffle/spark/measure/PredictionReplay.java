package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Replays the driver's prediction of a captured stage offline: the estimate over the flows of the
 * stages before it (what the driver's meter held when the stage was first planned), and {@link
 * TransferPrediction#ofStage} of the stage's traffic (one flow per reduce task and sending host, as
 * the coordinator registers it, in task attempt order: the order the coordinator lists a stage's
 * registered demands and then the forecast of its tasks still to register, which decides ties) on
 * the testbed's link model (3 + 3 hosts, NICs 12.5 MB/s, k 2, backbone 25 MB/s per side). The
 * capture does not record the traffic the driver predicted from (registered demands and the
 * forecast of the tasks still to come); the realised traffic stands for it, which on the testbed's
 * patterns (partition i and i + 3 of one size) is the same.
 *
 * <p>Run as a program on capture application folders:
 *
 * <pre>
 * java -cp ... io.wanshuffle.spark.measure.PredictionReplay [--flows] APP_DIR...
 * </pre>
 *
 * prints per application the predicted scheduled and default phases, the measured phase and the
 * estimate; with {@code --flows}, per flow whether it is the first on its host pair in the
 * application (a new connection) and its lead (active time less bytes at the testbed's per-flow
 * rate).
 */
final class PredictionReplay {
  /** The testbed's per-flow rate: a NIC, or half a backbone side, bytes/s. */
  static final long FLOW_RATE = 12_500_000;

  /** The testbed's link model: KPBS with k 2, δ 1, sites by address. */
  static final LinkModel TESTBED =
      LinkModel.kpbs(
          2,
          h -> 1,
          h -> h.startsWith("10.77.1.") ? "A" : h.startsWith("10.77.2.") ? "B" : h,
          FLOW_RATE);

  /**
   * One replayed stage.
   *
   * @param stageId the stage predicted
   * @param before the flows that ended before it, as the meter held them
   * @param traffic its traffic, one flow per reduce task and sending host
   * @param measuredPhase its transfer phase, first cross-site fetch request to last byte, seconds
   * @param loggedScheduled the driver's scheduled prediction, seconds (NaN: not recorded)
   * @param loggedDefault the driver's default prediction, seconds (NaN: not recorded)
   */
  record Stage(
      int stageId,
      List<MeasuredFlow> before,
      List<PlannedFlow> traffic,
      double measuredPhase,
      double loggedScheduled,
      double loggedDefault) {

    /**
     * @return the estimate over {@link #before}
     */
    NetworkEstimate estimate() {
      return NetworkEstimator.estimate(before, NetworkEstimator.Routes.of(TESTBED));
    }

    /**
     * @param configuredBeta β when none was measured, seconds
     * @return the prediction replayed
     */
    TransferPrediction.Prediction predict(double configuredBeta) {
      return TransferPrediction.ofStage(traffic, estimate(), TESTBED, configuredBeta);
    }
  }

  private PredictionReplay() {}

  /**
   * @param appDir a capture's application folder
   * @return its last gated stage (the measured one) with the flows of the stages before it
   * @throws IOException on read errors
   */
  static Stage lastStage(Path appDir) throws IOException {
    List<StageCapture> stages = new ArrayList<>(CaptureFiles.readStages(appDir));
    stages.sort(Comparator.comparingInt(StageCapture::stageId));
    StageCapture last = stages.get(stages.size() - 1);
    List<MeasuredFlow> all = CapturedFlows.fromCapture(appDir);
    List<FlowCapture> log = CaptureFiles.readFlowLog(appDir.resolve(CaptureFiles.FLOW_LOG));
    List<MeasuredFlow> before = new ArrayList<>();
    long first = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    Map<String, Long> traffic = new java.util.TreeMap<>();
    for (int i = 0; i < log.size(); i++) {
      FlowCapture f = log.get(i);
      if (f.stageId() < last.stageId()) {
        before.add(all.get(i));
      } else if (f.stageId() == last.stageId() && f.bytes() > 0) {
        first = Math.min(first, f.startMs());
        end = Math.max(end, f.endMs());
        traffic.merge(
            String.format(Locale.ROOT, "%012d", f.taskAttemptId())
                + ","
                + f.srcHost()
                + ","
                + f.dstHost(),
            f.bytes(),
            Long::sum);
      }
    }
    List<PlannedFlow> flows = new ArrayList<>();
    traffic.forEach(
        (key, bytes) -> {
          String[] c = key.split(",");
          flows.add(new PlannedFlow(c[1], c[2], bytes));
        });
    return new Stage(
        last.stageId(),
        before,
        flows,
        Double.isNaN(last.network().transferPhaseSeconds())
            ? (end - first) / 1000.0
            : last.network().transferPhaseSeconds(),
        last.network().predictedScheduledSeconds(),
        last.network().predictedDefaultSeconds());
  }

  /**
   * Per flow of an application, in start order: whether it is the first on its host pair and its
   * lead at the testbed's per-flow rate.
   */
  static void printFlows(List<MeasuredFlow> flows, PrintStream out) {
    List<MeasuredFlow> byStart = new ArrayList<>(flows);
    byStart.sort(Comparator.comparingLong(MeasuredFlow::startMs));
    Set<String> seen = new HashSet<>();
    long t0 = byStart.isEmpty() ? 0 : byStart.get(0).startMs();
    for (MeasuredFlow f : byStart) {
      boolean firstOnPair = seen.add(f.srcHost() + ">" + f.dstHost());
      double lead = f.activeSeconds() - (double) f.bytes() / FLOW_RATE;
      out.printf(
          Locale.ROOT,
          "  %8.3f %s>%s %9d B %6.3f s lead %6.3f s grant->start %6.3f s %s%n",
          (f.startMs() - t0) / 1000.0,
          f.srcHost(),
          f.dstHost(),
          f.bytes(),
          f.activeSeconds(),
          lead,
          f.gated() ? (f.startMs() - f.grantedAtMs()) / 1000.0 : Double.NaN,
          firstOnPair ? "first" : "");
    }
  }

  /** Header of a stage fixture: the components of {@link PlannedFlow} it holds. */
  static final String STAGE_HEADER = "srcHost,dstHost,bytes";

  /** Comment line of a stage fixture that carries its measured transfer phase. */
  static final String PHASE = "# transferPhaseSeconds=";

  /**
   * Writes a replayed stage as two fixtures: {@code <name>-before.csv}, the flows before it ({@link
   * CapturedFlows#HEADER}), and {@code <name>-stage.csv}, its traffic ({@link #STAGE_HEADER}) and
   * measured phase ({@link #PHASE}).
   *
   * @param s the stage
   * @param source where it was captured, for the comment lines
   * @param dir the folder written to
   * @param name the fixtures' name
   * @throws IOException on write errors
   */
  static void writeFixture(Stage s, String source, Path dir, String name) throws IOException {
    StringBuilder before = new StringBuilder();
    before.append("# flows before stage ").append(s.stageId()).append(" of ").append(source);
    before.append('\n').append(CapturedFlows.HEADER).append('\n');
    for (MeasuredFlow f : s.before()) {
      before.append(CapturedFlows.csvLine(f));
      before.append('\n');
    }
    java.nio.file.Files.writeString(dir.resolve(name + "-before.csv"), before);
    StringBuilder stage = new StringBuilder();
    stage.append("# stage ").append(s.stageId()).append(" of ").append(source);
    stage.append(", one flow per reduce task and sending host, in task order\n");
    stage.append(PHASE).append(s.measuredPhase()).append('\n');
    stage.append(STAGE_HEADER).append('\n');
    for (PlannedFlow f : s.traffic()) {
      stage.append(f.srcHost()).append(',').append(f.dstHost()).append(',').append(f.bytes());
      stage.append('\n');
    }
    java.nio.file.Files.writeString(dir.resolve(name + "-stage.csv"), stage);
  }

  /**
   * @param name the fixtures' name under {@code /measure/} on the test class path ({@link
   *     #writeFixture})
   * @return the stage they hold (stage id -1, no logged predictions)
   */
  static Stage fixture(String name) {
    List<MeasuredFlow> before = CapturedFlows.fixture(name + "-before.csv");
    java.io.InputStream in =
        PredictionReplay.class.getResourceAsStream("/measure/" + name + "-stage.csv");
    if (in == null) {
      throw new IllegalArgumentException("no fixture /measure/" + name + "-stage.csv");
    }
    List<PlannedFlow> traffic = new ArrayList<>();
    double phase = Double.NaN;
    try (java.io.BufferedReader r =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
      String l;
      while ((l = r.readLine()) != null) {
        l = l.trim();
        if (l.startsWith(PHASE)) {
          phase = Double.parseDouble(l.substring(PHASE.length()));
        } else if (!l.isEmpty() && !l.startsWith("#") && !l.equals(STAGE_HEADER)) {
          String[] c = l.split(",");
          traffic.add(new PlannedFlow(c[0], c[1], Long.parseLong(c[2])));
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return new Stage(-1, before, traffic, phase, Double.NaN, Double.NaN);
  }

  /**
   * @param args {@code [--flows] APP_DIR...}, or {@code fixture DIR NAME APP_DIR} to write the
   *     fixtures of an application's last stage
   * @throws IOException on read errors
   */
  public static void main(String[] args) throws IOException {
    if (args.length == 4 && args[0].equals("fixture")) {
      Stage s = lastStage(Path.of(args[3]));
      Path app = Path.of(args[3]);
      writeFixture(
          s,
          "testbed capture " + app.getParent().getFileName() + "/" + app.getFileName(),
          Path.of(args[1]),
          args[2]);
      return;
    }
    boolean flows = false;
    for (String a : args) {
      if (a.equals("--flows")) {
        flows = true;
        continue;
      }
      Path p = Path.of(a);
      Stage s = lastStage(p);
      NetworkEstimate e = s.estimate();
      TransferPrediction.Prediction pr = s.predict(0.05);
      System.out.printf(
          Locale.ROOT,
          "%s stage %d: measured %.3f s; replayed scheduled %.3f s (%+.1f %%), default %.3f s;"
              + " logged scheduled %.3f s, default %.3f s%n",
          p,
          s.stageId(),
          s.measuredPhase(),
          pr.scheduledSeconds(),
          100 * (pr.scheduledSeconds() / s.measuredPhase() - 1),
          pr.defaultSeconds(),
          s.loggedScheduled(),
          s.loggedDefault());
      CapturedFlows.print("  estimate before", e, System.out);
      if (flows) {
        printFlows(CapturedFlows.fromCapture(p), System.out);
      }
    }
  }
}
