package io.wanshuffle.spark.capture;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kryo 4 (the kryo-shaded 4.0.3 that Spark ships) serializers of the capture records. Every record
 * has an explicit serializer writing its components in declaration order, so the format does not
 * depend on reflection over record fields and is documented in docs/capture.md. Registration is
 * required and ids are fixed (100..103).
 */
final class CaptureKryo {
  private CaptureKryo() {}

  /**
   * @return a Kryo instance that knows exactly the capture records of the current format version
   *     (not thread-safe)
   */
  static Kryo newKryo() {
    return newKryo(CaptureFiles.VERSION);
  }

  /**
   * @param version the format version to read or write: 2 (without β, host paths, links and link
   *     series), 3 (without network figures), 4 (without the k, base speed and β planned with), 5
   *     (plans' residuals as dense matrices), 6 (flows without their stall) or 7
   * @return a Kryo instance that knows exactly the capture records (not thread-safe)
   */
  static Kryo newKryo(int version) {
    Kryo k = new Kryo();
    k.setRegistrationRequired(true);
    k.register(FlowCapture.class, new FlowSerializer(version), 100);
    k.register(StepCapture.class, new StepSerializer(), 101);
    k.register(PlanCapture.class, new PlanSerializer(version), 102);
    k.register(StageCapture.class, new StageSerializer(version), 103);
    return k;
  }

  static void writeStrings(Output o, List<String> l) {
    o.writeVarInt(l.size(), true);
    for (String s : l) {
      o.writeString(s);
    }
  }

  static List<String> readStrings(Input in) {
    int n = in.readVarInt(true);
    List<String> l = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      l.add(in.readString());
    }
    return l;
  }

  static void writeMatrix(Output o, long[][] m) {
    o.writeVarInt(m.length, true);
    for (long[] row : m) {
      o.writeVarInt(row.length, true);
      for (long v : row) {
        o.writeVarLong(v, true);
      }
    }
  }

  static long[][] readMatrix(Input in) {
    long[][] m = new long[in.readVarInt(true)][];
    for (int i = 0; i < m.length; i++) {
      m[i] = new long[in.readVarInt(true)];
      for (int j = 0; j < m[i].length; j++) {
        m[i][j] = in.readVarLong(true);
      }
    }
    return m;
  }

  /**
   * Writes a residual as its shape, its number of non-zero cells and each cell's row, column and
   * bytes (variable-length, row-major order).
   */
  static void writeCells(Output o, ResidualBytes r) {
    o.writeVarInt(r.rows(), true);
    o.writeVarInt(r.cols(), true);
    o.writeVarInt(r.cellCount(), true);
    for (int e = 0; e < r.cellCount(); e++) {
      o.writeVarInt(r.row(e), true);
      o.writeVarInt(r.col(e), true);
      o.writeVarLong(r.bytes(e), true);
    }
  }

  static ResidualBytes readCells(Input in) {
    int rows = in.readVarInt(true);
    int cols = in.readVarInt(true);
    int n = in.readVarInt(true);
    int[] r = new int[n];
    int[] c = new int[n];
    long[] b = new long[n];
    for (int e = 0; e < n; e++) {
      r[e] = in.readVarInt(true);
      c[e] = in.readVarInt(true);
      b[e] = in.readVarLong(true);
    }
    return ResidualBytes.ofCells(rows, cols, r, c, b);
  }

  static final class FlowSerializer extends Serializer<FlowCapture> {
    private final int version;

    FlowSerializer(int version) {
      this.version = version;
    }

    @Override
    public void write(Kryo k, Output o, FlowCapture f) {
      o.writeVarLong(f.stepId(), true);
      o.writeVarInt(f.stageId(), true);
      o.writeVarInt(f.stageAttempt(), true);
      o.writeVarInt(f.shuffleId(), true);
      o.writeVarLong(f.taskAttemptId(), true);
      o.writeString(f.srcHost());
      o.writeString(f.dstHost());
      o.writeVarLong(f.bytes(), true);
      o.writeVarLong(f.startMs(), true);
      o.writeVarLong(f.endMs(), true);
      o.writeVarLong(f.handedOnMs(), true);
      if (version >= 7) {
        o.writeVarLong(f.stalledMs(), true);
      }
    }

    @Override
    public FlowCapture read(Kryo k, Input in, Class<FlowCapture> type) {
      return new FlowCapture(
          in.readVarLong(true),
          in.readVarInt(true),
          in.readVarInt(true),
          in.readVarInt(true),
          in.readVarLong(true),
          in.readString(),
          in.readString(),
          in.readVarLong(true),
          in.readVarLong(true),
          in.readVarLong(true),
          in.readVarLong(true),
          version >= 7 ? in.readVarLong(true) : 0);
    }
  }

  static final class StepSerializer extends Serializer<StepCapture> {
    @Override
    public void write(Kryo k, Output o, StepCapture s) {
      o.writeVarLong(s.stepId(), true);
      o.writeVarLong(s.planId(), true);
      o.writeVarInt(s.flows().size(), true);
      for (StepCapture.Grant g : s.flows()) {
        o.writeString(g.srcHost());
        o.writeString(g.dstHost());
        o.writeVarLong(g.bytes(), true);
      }
      o.writeVarLong(s.grantedAtMs(), true);
      o.writeVarLong(s.deadlineMs(), true);
      o.writeVarLong(s.endMs(), true);
      o.writeBoolean(s.deadlinePassed());
      o.writeVarLong(s.realisedBytes(), true);
    }

    @Override
    public StepCapture read(Kryo k, Input in, Class<StepCapture> type) {
      long stepId = in.readVarLong(true);
      long planId = in.readVarLong(true);
      int n = in.readVarInt(true);
      List<StepCapture.Grant> flows = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        flows.add(new StepCapture.Grant(in.readString(), in.readString(), in.readVarLong(true)));
      }
      return new StepCapture(
          stepId,
          planId,
          flows,
          in.readVarLong(true),
          in.readVarLong(true),
          in.readVarLong(true),
          in.readBoolean(),
          in.readVarLong(true));
    }
  }

  static final class PlanSerializer extends Serializer<PlanCapture> {
    private final int version;

    PlanSerializer(int version) {
      this.version = version;
    }

    @Override
    public void write(Kryo k, Output o, PlanCapture p) {
      o.writeVarLong(p.planId(), true);
      o.writeVarLong(p.atMs(), true);
      o.writeString(p.algorithm());
      writeStrings(o, p.senders());
      writeStrings(o, p.receivers());
      if (version >= 6) {
        writeCells(o, p.residualBytes());
      } else {
        writeMatrix(o, p.residualBytes().toDense());
      }
      o.writeVarLong(p.bytesPerSecond(), true);
      o.writeVarInt(p.k(), true);
      o.writeDouble(p.betaSeconds());
      o.writeVarInt(p.steps().size(), true);
      for (PlanCapture.PlannedStep s : p.steps()) {
        o.writeDouble(s.durationSeconds());
        o.writeVarInt(s.src().length, true);
        for (int t = 0; t < s.src().length; t++) {
          o.writeVarInt(s.src()[t], true);
          o.writeVarInt(s.dst()[t], true);
          o.writeDouble(s.seconds()[t]);
        }
      }
      o.writeVarLong(p.planNanos(), true);
    }

    @Override
    public PlanCapture read(Kryo k, Input in, Class<PlanCapture> type) {
      long planId = in.readVarLong(true);
      long atMs = in.readVarLong(true);
      String algorithm = in.readString();
      List<String> senders = readStrings(in);
      List<String> receivers = readStrings(in);
      ResidualBytes residual = version >= 6 ? readCells(in) : ResidualBytes.ofDense(readMatrix(in));
      long bps = in.readVarLong(true);
      int kk = in.readVarInt(true);
      double beta = in.readDouble();
      int n = in.readVarInt(true);
      List<PlanCapture.PlannedStep> steps = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        double d = in.readDouble();
        int t = in.readVarInt(true);
        int[] src = new int[t];
        int[] dst = new int[t];
        double[] sec = new double[t];
        for (int j = 0; j < t; j++) {
          src[j] = in.readVarInt(true);
          dst[j] = in.readVarInt(true);
          sec[j] = in.readDouble();
        }
        steps.add(new PlanCapture.PlannedStep(d, src, dst, sec));
      }
      return new PlanCapture(
          planId,
          atMs,
          algorithm,
          senders,
          receivers,
          residual,
          bps,
          kk,
          beta,
          steps,
          in.readVarLong(true));
    }
  }

  static final class StageSerializer extends Serializer<StageCapture> {
    private final int version;

    StageSerializer(int version) {
      this.version = version;
    }

    @Override
    public void write(Kryo k, Output o, StageCapture s) {
      o.writeString(s.appId());
      o.writeVarInt(s.stageId(), true);
      o.writeVarInt(s.stageAttempt(), true);
      o.writeVarInt(s.shuffleIds().length, true);
      for (int id : s.shuffleIds()) {
        o.writeVarInt(id, true);
      }
      o.writeString(s.algorithm());
      o.writeVarInt(s.k(), true);
      o.writeVarLong(s.bytesPerSecond(), true);
      o.writeVarLong(s.backboneBytesPerSecond(), true);
      writeStrings(o, s.hosts());
      writeMatrix(o, s.registeredBytes());
      writeMatrix(o, s.realisedBytes());
      o.writeVarLong(s.firstDemandMs(), true);
      o.writeVarLong(s.endMs(), true);
      o.writeVarInt(s.plans().size(), true);
      for (PlanCapture p : s.plans()) {
        k.writeObject(o, p);
      }
      o.writeVarInt(s.steps().size(), true);
      for (StepCapture st : s.steps()) {
        k.writeObject(o, st);
      }
      o.writeVarInt(s.flows().size(), true);
      for (FlowCapture f : s.flows()) {
        k.writeObject(o, f);
      }
      if (version >= 3) {
        o.writeDouble(s.betaSeconds());
        writeStrings(o, s.hostPaths());
        o.writeVarInt(s.links().size(), true);
        for (LinkFigures l : s.links()) {
          o.writeString(l.link());
          o.writeVarInt(l.capacityFlows(), true);
          o.writeVarLong(l.rateBytesPerSecond(), true);
          o.writeVarLong(l.registeredBytes(), true);
          o.writeVarLong(l.realisedBytes(), true);
          o.writeVarInt(l.maxFlowsInAStep(), true);
        }
        o.writeVarInt(s.linkSeries().size(), true);
        for (LinkSeries l : s.linkSeries()) {
          o.writeString(l.link());
          o.writeVarLong(l.rateBytesPerSecond(), true);
          o.writeVarLong(l.startMs(), true);
          o.writeVarLong(l.binMs(), true);
          o.writeVarInt(l.bytes().length, true);
          for (long b : l.bytes()) {
            o.writeVarLong(b, true);
          }
        }
      }
      if (version >= 4) {
        NetworkFigures n = s.network();
        o.writeDouble(n.measuredBetaSeconds());
        o.writeVarInt(n.measuredRates().size(), true);
        for (Map.Entry<String, Double> e : n.measuredRates().entrySet()) {
          o.writeString(e.getKey());
          o.writeDouble(e.getValue());
        }
        o.writeVarInt(n.measuredFlows(), true);
        o.writeDouble(n.predictedScheduledSeconds());
        o.writeDouble(n.predictedDefaultSeconds());
        o.writeDouble(n.transferPhaseSeconds());
        o.writeString(n.decision());
      }
      if (version >= 5) {
        NetworkFigures n = s.network();
        o.writeVarInt(n.plannedK(), true);
        o.writeVarLong(n.plannedBytesPerSecond(), true);
        o.writeDouble(n.plannedBetaSeconds());
      }
    }

    @Override
    public StageCapture read(Kryo k, Input in, Class<StageCapture> type) {
      String appId = in.readString();
      int stageId = in.readVarInt(true);
      int attempt = in.readVarInt(true);
      int[] shuffles = new int[in.readVarInt(true)];
      for (int i = 0; i < shuffles.length; i++) {
        shuffles[i] = in.readVarInt(true);
      }
      String algorithm = in.readString();
      int kk = in.readVarInt(true);
      long bps = in.readVarLong(true);
      long backbone = in.readVarLong(true);
      List<String> hosts = readStrings(in);
      long[][] registered = readMatrix(in);
      long[][] realised = readMatrix(in);
      long first = in.readVarLong(true);
      long end = in.readVarLong(true);
      int np = in.readVarInt(true);
      List<PlanCapture> plans = new ArrayList<>(np);
      for (int i = 0; i < np; i++) {
        plans.add(k.readObject(in, PlanCapture.class));
      }
      int ns = in.readVarInt(true);
      List<StepCapture> steps = new ArrayList<>(ns);
      for (int i = 0; i < ns; i++) {
        steps.add(k.readObject(in, StepCapture.class));
      }
      int nf = in.readVarInt(true);
      List<FlowCapture> flows = new ArrayList<>(nf);
      for (int i = 0; i < nf; i++) {
        flows.add(k.readObject(in, FlowCapture.class));
      }
      double beta = 0;
      List<String> paths = List.of();
      List<LinkFigures> links = new ArrayList<>();
      List<LinkSeries> series = new ArrayList<>();
      if (version >= 3) {
        beta = in.readDouble();
        paths = readStrings(in);
        int nl = in.readVarInt(true);
        for (int i = 0; i < nl; i++) {
          links.add(
              new LinkFigures(
                  in.readString(),
                  in.readVarInt(true),
                  in.readVarLong(true),
                  in.readVarLong(true),
                  in.readVarLong(true),
                  in.readVarInt(true)));
        }
        int nseries = in.readVarInt(true);
        for (int i = 0; i < nseries; i++) {
          String name = in.readString();
          long rate = in.readVarLong(true);
          long start = in.readVarLong(true);
          long bin = in.readVarLong(true);
          long[] bytes = new long[in.readVarInt(true)];
          for (int b = 0; b < bytes.length; b++) {
            bytes[b] = in.readVarLong(true);
          }
          series.add(new LinkSeries(name, rate, start, bin, bytes));
        }
      }
      NetworkFigures network = NetworkFigures.NONE;
      if (version >= 4) {
        double beta4 = in.readDouble();
        Map<String, Double> rates = new TreeMap<>();
        int nr = in.readVarInt(true);
        for (int i = 0; i < nr; i++) {
          rates.put(in.readString(), in.readDouble());
        }
        int measuredFlows = in.readVarInt(true);
        double scheduled = in.readDouble();
        double dflt = in.readDouble();
        double phase = in.readDouble();
        String decision = in.readString();
        int plannedK = 0;
        long plannedBps = 0;
        double plannedBeta = Double.NaN;
        if (version >= 5) {
          plannedK = in.readVarInt(true);
          plannedBps = in.readVarLong(true);
          plannedBeta = in.readDouble();
        }
        network =
            new NetworkFigures(
                beta4,
                rates,
                measuredFlows,
                scheduled,
                dflt,
                phase,
                decision,
                plannedK,
                plannedBps,
                plannedBeta);
      }
      return new StageCapture(
          appId,
          stageId,
          attempt,
          shuffles,
          algorithm,
          kk,
          bps,
          backbone,
          hosts,
          registered,
          realised,
          first,
          end,
          plans,
          steps,
          flows,
          beta,
          paths,
          links,
          series,
          network);
    }
  }
}
