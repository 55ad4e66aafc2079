package io.wanshuffle.it.demo;

import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.scheduler.BaseSpeed;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.estimate.BruteForceEstimator;
import java.util.Arrays;

/**
 * Predicted reduce-side transfer times of a captured traffic matrix on the testbed's platform
 * (base-speed rule of the DGGP paper, sec. 2.2: k and δ from the backbone and NIC rates): the step
 * schedule's cost Σ(β + step duration) of a scheduler of scheduler-core, the η lower bound
 * (GGP/OGGP paper, sec. 5), and the brute-force estimate η_o of Spark's all-at-once fetch under
 * fair sharing (redistribution-prediction paper, Fig. 5).
 *
 * @param algorithm scheduler whose schedule was costed
 * @param k flows per step
 * @param steps steps of the schedule
 * @param scheduleSeconds schedule cost, s
 * @param etaSeconds η lower bound, s
 * @param etaOSeconds η_o, s
 */
public record Prediction(
    String algorithm,
    int k,
    int steps,
    double scheduleSeconds,
    double etaSeconds,
    double etaOSeconds) {

  /**
   * @param bytes {@code [senders][receivers]} bytes, at least one non-zero
   * @param spec testbed rates (every host at the NIC rate)
   * @param algorithm scheduler name; when scheduler-core has no such scheduler (for example {@code
   *     auto}, which the plugin resolves itself) {@code oggp} is used and named in the result
   * @param betaSeconds step setup delay β, s
   * @return the prediction
   */
  public static Prediction of(
      long[][] bytes, TestbedSpec spec, String algorithm, double betaSeconds) {
    long[] senders = new long[bytes.length];
    long[] receivers = new long[bytes[0].length];
    Arrays.fill(senders, spec.nicBitsPerSecond() / 8);
    Arrays.fill(receivers, spec.nicBitsPerSecond() / 8);
    BaseSpeed base = BaseSpeed.of(spec.backboneBitsPerSecond() / 8, senders, receivers);
    double[][] b = new double[bytes.length][bytes[0].length];
    for (int i = 0; i < bytes.length; i++) {
      for (int j = 0; j < bytes[i].length; j++) {
        b[i][j] = bytes[i][j];
      }
    }
    TrafficMatrix m = base.toSeconds(TrafficMatrix.of(b));
    Platform p = base.platform(betaSeconds);
    String alg = Algorithms.names().contains(algorithm) ? algorithm : "oggp";
    Schedule s = Algorithms.byName(alg).schedule(m, p);
    return new Prediction(
        alg,
        p.k(),
        s.stepCount(),
        s.cost(betaSeconds),
        LowerBound.of(m, p).eta(),
        BruteForceEstimator.estimate(m, p));
  }
}
