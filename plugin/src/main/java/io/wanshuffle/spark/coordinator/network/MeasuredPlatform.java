package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.measure.LinkRate;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The KPBS platform of measured rates, for {@code k=auto} with an {@code auto} rate ({@link
 * WanShuffleConf#platformAuto()}; all four keys are {@code auto} by default): the base-speed rule
 * of the DGGP paper (Jeannot and Wagner, sec. 2.2-2.3) applied to the backbone rate and the NIC
 * rates, each measured when its key is {@code auto} and as configured otherwise. A host listed in
 * {@code nic.rates} keeps its configured rate; with {@code nic.rate=auto} every other host counts
 * at its measured rate, or at the slowest measured NIC when it was not measured. Measured rates
 * share no exact common divisor, so the per-flow rate is the slowest NIC (a flow runs at most at
 * its NIC's rate): k = round(backbone / slowest NIC), at least 1 and at most {@link
 * WanShuffleConf#MAX_FLOWS}; base speed b = backbone / k; δ(h) = round(NIC(h) / b) within 1..k, or
 * the configured δ (capped by k) when one is set.
 *
 * <p>The backbone's measured rate is the slowest measured side ({@code backbone.out[...]}, {@code
 * backbone.in[...]}); a host's measured NIC rate the slower of its {@code nic.up[h]} and {@code
 * nic.down[h]}. A measured rate is what the link achieved for its flows: its capacity where it was
 * their bottleneck, a lower bound otherwise ({@link io.wanshuffle.spark.measure.NetworkEstimator});
 * so the backbone is measured at most at what the flows planned so far could fill, and a NIC that
 * waited on the backbone at its share (more senders than the backbone carries at NIC rate then give
 * a larger k of slower flows, which still fill the backbone without exceeding it).
 *
 * @param k flows per side of the backbone
 * @param baseSpeed b, bytes/s of one flow
 * @param backboneRate the backbone rate (measured or configured), bytes/s
 * @param slowestNicRate the slowest NIC rate, bytes/s
 * @param nicRates per host with a rate of its own (measured, or configured), bytes/s
 * @param otherNicRate the NIC rate of other hosts, bytes/s
 */
record MeasuredPlatform(
    int k,
    long baseSpeed,
    double backboneRate,
    double slowestNicRate,
    Map<String, Double> nicRates,
    double otherNicRate) {

  /**
   * A measured backbone between 1 / this and this many times the slowest NIC is inconclusive: it
   * carried about one flow's worth, which is what a backbone of any rate shows when the flows
   * planned so far did not run side by side (a matrix whose senders idle), so it does not give k (k
   * = 1 from it would keep flows from ever running side by side, and the backbone from being
   * measured again). Above it at least two flows ran at once; below it the backbone held a flow
   * under its NIC's rate.
   */
  static final double INCONCLUSIVE_RATIO = 1.5;

  /**
   * @param e the measurement
   * @param conf the configuration: its backbone rate unless {@code backbone.rate=auto}, its NIC
   *     rates unless {@code nic.rate=auto}, and the rates of the hosts of {@code nic.rates}
   * @return the platform of the rates; empty when a rate to measure was not measured (with {@code
   *     backbone.rate=auto} no backbone side, with {@code nic.rate=auto} no NIC), when the
   *     measurement holds no gated flow (an ungated fetch's flow spans the task's whole fetch from
   *     its host, waits included, so the fair-sharing model of its links counts flows that were not
   *     sending: a 200 Mbit/s backbone measured at 0.8-1.2 Gbit/s and NICs at a tenth of their
   *     rate), or when a measured backbone is inconclusive ({@link #INCONCLUSIVE_RATIO})
   */
  static Optional<MeasuredPlatform> of(NetworkEstimate e, WanShuffleConf conf) {
    if (!e.hasBeta()) {
      return Optional.empty(); // no gated flow: the rates of ungated fetches only
    }
    double backbone = Double.POSITIVE_INFINITY;
    Map<String, Double> measured = new HashMap<>();
    for (LinkRate r : e.rates().values()) {
      double v = r.bytesPerSecond();
      if (!(v > 0)) {
        continue;
      }
      String n = r.link();
      if (n.startsWith("backbone.out[") || n.startsWith("backbone.in[")) {
        backbone = Math.min(backbone, v);
      } else if (n.startsWith("nic.up[") || n.startsWith("nic.down[")) {
        String host = n.substring(n.indexOf('[') + 1, n.length() - 1);
        measured.merge(host, v, Math::min);
      }
    }
    if (!conf.get(Settings.BACKBONE_RATE).is(Settings.AUTO)) {
      backbone = conf.backboneRate();
    }
    Map<String, Double> nics = new HashMap<>();
    double other;
    if (conf.get(Settings.NIC_RATE).is(Settings.AUTO)) {
      nics.putAll(measured);
      nics.keySet().removeAll(conf.get(Settings.NIC_RATES).keySet());
      other = nics.values().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    } else {
      other = conf.nicRate("");
    }
    for (String h : conf.get(Settings.NIC_RATES).keySet()) {
      nics.put(h, (double) conf.nicRate(h));
    }
    if (Double.isInfinite(backbone) || Double.isNaN(other)) {
      return Optional.empty();
    }
    double slowest = nics.values().stream().mapToDouble(Double::doubleValue).min().orElse(other);
    slowest = Math.min(slowest, other);
    if (conf.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
        && backbone > slowest / INCONCLUSIVE_RATIO
        && backbone < INCONCLUSIVE_RATIO * slowest) {
      return Optional.empty();
    }
    int k = (int) Math.max(1, Math.min(WanShuffleConf.MAX_FLOWS, Math.round(backbone / slowest)));
    long b = Math.max(1, (long) (backbone / k));
    return Optional.of(new MeasuredPlatform(k, b, backbone, slowest, Map.copyOf(nics), other));
  }

  /**
   * @param host a host name
   * @param deltaSet δ set for every host, 0 when derived
   * @return δ(host), 1..k
   */
  int delta(String host, int deltaSet) {
    if (deltaSet > 0) {
      return Math.min(k, deltaSet);
    }
    double nic = nicRates.getOrDefault(host, otherNicRate);
    return (int) Math.max(1, Math.min(k, Math.round(nic / baseSpeed)));
  }

  /**
   * @param conf the configuration (its δ, when set)
   * @param clusterOf the cluster of a host
   * @return the KPBS link model of these rates ({@link LinkModel#kpbs})
   */
  LinkModel links(WanShuffleConf conf, Function<String, String> clusterOf) {
    int set = conf.get(Settings.DELTA).orElse(0);
    return LinkModel.kpbs(k, h -> delta(h, set), clusterOf, baseSpeed);
  }
}
