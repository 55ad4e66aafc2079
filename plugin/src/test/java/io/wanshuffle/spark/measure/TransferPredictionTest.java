package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransferPredictionTest {
  private static final LinkModel KPBS =
      LinkModel.kpbs(2, h -> 1, h -> h.substring(0, 1), 1_000_000);

  private static PlannedFlow f(String s, String d, long bytes) {
    return new PlannedFlow(s, d, bytes);
  }

  private static NetworkEstimate measured(double beta, double ramp, Map<String, Double> rates) {
    Map<String, LinkRate> r = new java.util.TreeMap<>();
    rates.forEach((k, v) -> r.put(k, new LinkRate(k, v, TransferPrediction.MIN_FLOWS, true)));
    return new NetworkEstimate(beta, beta - ramp, ramp, r, 10);
  }

  @Test
  void withoutMeasurementsTheConfiguredRatesAndBetaStand() {
    List<PlannedFlow> plan =
        List.of(
            f("a0", "b0", 1_000_000),
            f("a1", "b1", 1_000_000),
            f("a0", "b1", 500_000),
            f("a1", "b0", 500_000));
    // two flows at a time on the 2-flow backbone: 0.1 + 1 s, then 0.1 + 0.5 s
    assertEquals(1.7, TransferPrediction.scheduled(plan, NetworkEstimate.EMPTY, KPBS, 0.1), 1e-9);
  }

  @Test
  void aFreedPortTakesTheNextTransferAtOnce() {
    // a1 -> b1 ends at 0.3 s; a1 -> b2 takes its backbone flow then and ends at 0.9 s, before
    // a0 -> b0 at 1.1 s; the KPBS cost of the two steps would be 1.1 + 0.6 = 1.7 s
    List<PlannedFlow> plan =
        List.of(f("a0", "b0", 1_000_000), f("a1", "b1", 200_000), f("a1", "b2", 500_000));
    assertEquals(1.1, TransferPrediction.scheduled(plan, NetworkEstimate.EMPTY, KPBS, 0.1), 1e-9);
  }

  @Test
  void measuredRatesAndBetaReplaceTheConfiguredOnes() {
    NetworkEstimate est =
        measured(0.3, 0.2, Map.of("nic.up[a0]", 0.5e6, "backbone.out[/a]", 1.6e6));
    List<PlannedFlow> plan = List.of(f("a0", "b0", 1_000_000), f("a1", "b1", 1_000_000));
    // a0's NIC: 0.5 MB/s; a1's flow: the backbone side's 1.6 MB/s over its 2 flows
    assertEquals(0.3 + 2.0, TransferPrediction.scheduled(plan, est, KPBS, 0.1), 1e-9);
    assertEquals(0, TransferPrediction.scheduled(List.of(), est, KPBS, 0.1));
  }

  @Test
  void aPortsLaterFlowsPayTheGrantDelayAndOnlyTheFirstTheRamp() {
    // β 0.3 s = grant 0.1 + ramp 0.2; a0 -> b0 then a0 -> b1 on a0's one NIC flow, 1 MB/s each
    NetworkEstimate est = measured(0.3, 0.2, Map.of());
    List<PlannedFlow> plan = List.of(f("a0", "b0", 1_000_000), f("a0", "b1", 1_000_000));
    assertEquals(0.2 + 2 * (0.1 + 1.0), TransferPrediction.scheduled(plan, est, KPBS, 0.5), 1e-9);
  }

  @Test
  void summedTransfersOfAHostPairPredictAsTheTransfersOneByOne() {
    // beyond MAX_SIMULATED transfers both are the sum of β + bytes / rate over k flows
    int n = TransferPrediction.MAX_SIMULATED + 2;
    List<PlannedFlow> each = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      each.add(f("a" + (i % 2), "b" + (i % 2), 100_000));
    }
    List<PlannedFlow> summed =
        List.of(
            new PlannedFlow("a0", "b0", 100_000L * n / 2, n / 2),
            new PlannedFlow("a1", "b1", 100_000L * n / 2, n / 2));
    double expected = n * (0.1 + 0.1) / 2;
    assertEquals(
        expected, TransferPrediction.scheduled(each, NetworkEstimate.EMPTY, KPBS, 0.1), 1e-6);
    assertEquals(
        expected, TransferPrediction.scheduled(summed, NetworkEstimate.EMPTY, KPBS, 0.1), 1e-6);
    assertEquals(
        TransferPrediction.fairShare(each, NetworkEstimate.EMPTY, KPBS),
        TransferPrediction.fairShare(summed, NetworkEstimate.EMPTY, KPBS),
        1e-9,
        "fair sharing sees the host pairs' bytes");
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> new PlannedFlow("a0", "b0", 1, 0));
  }

  @Test
  void theMeasuredBaseSpeedIsTheMeasuredNics() {
    List<String> s = List.of("a0", "a1");
    List<String> d = List.of("b0", "b1");
    route(s, d);
    NetworkEstimate est =
        measured(0.2, 0.1, Map.of("nic.up[a0]", 1e6, "nic.down[b1]", 1e6, "backbone.in[/b]", 1e6));
    assertEquals(1e6, TransferPrediction.measuredBaseSpeed(est, KPBS), 1e-9);
  }

  @Test
  void theDefaultSharesEveryLinkMaxMinFairlyAtTheMeasuredRates() {
    // a0 -> b0, a0 -> b1 and a1 -> b1, 1 MB each
    List<PlannedFlow> flows =
        List.of(
            f("a0", "b0", 1_000_000),
            f("a0", "b1", 600_000),
            f("a1", "b1", 1_000_000),
            f("a0", "b1", 400_000));
    // configured: a0's and b1's NICs (1 flow of 1 MB/s) each carry two transfers at 0.5 MB/s,
    // the 2-flow backbone side 1.5 of its 2: every transfer ends at 2 s
    assertEquals(2.0, TransferPrediction.fairShare(flows, NetworkEstimate.EMPTY, KPBS), 1e-9);
    // measured: a's backbone side carries 1 MB/s; the three transfers share it at 1/3 MB/s each
    // and end together at 3 s; plus the measured ramp once
    NetworkEstimate est = measured(0.2, 0.1, Map.of("nic.up[a0]", 1e6, "backbone.out[/a]", 1e6));
    assertEquals(3.0 + 0.1, TransferPrediction.fairShare(flows, est, KPBS), 1e-9);
    assertEquals(0, TransferPrediction.fairShare(List.of(f("a0", "b0", 0)), est, KPBS));
  }

  @Test
  void aStageIsPredictedOnAllItsFlowsMostLoadedLinkFirst() {
    // two tasks on b0 fetch 1 MB each from a0; one task on b1 and one on b2 fetch 0.1 MB from a1
    List<PlannedFlow> flows =
        List.of(
            f("a1", "b1", 100_000),
            f("a0", "b0", 1_000_000),
            f("a1", "b2", 100_000),
            f("a0", "b0", 1_000_000));
    // a0's and b0's NICs carry 2 s of bytes, a's backbone side 1.1 s over its 2 flows
    assertEquals(
        List.of(flows.get(1), flows.get(3), flows.get(0), flows.get(2)),
        TransferPrediction.bottleneckFirst(flows, NetworkEstimate.EMPTY, KPBS));
    // scheduled: a0's two flows one after the other, β = 0.1 s each; a1's beside them
    TransferPrediction.Prediction p =
        TransferPrediction.ofStage(flows, NetworkEstimate.EMPTY, KPBS, 0.1);
    assertEquals(2 * 1.1, p.scheduledSeconds(), 1e-9);
    // default: a0 -> b0's 2 MB at one flow's 1 MB/s; a1's two transfers beside it
    assertEquals(2.0, p.defaultSeconds(), 1e-9);
    assertEquals(
        TransferPrediction.fairShare(flows, NetworkEstimate.EMPTY, KPBS), p.defaultSeconds());
  }

  @Test
  void aRateCountsWhenMeasuredOverEnoughFlowsAndAtMostTheModelsRate() {
    route(List.of("a0"), List.of("b0"));
    int nic = -1;
    int backbone = -1;
    for (int l = 0; l < KPBS.linkCount(); l++) {
      nic = KPBS.name(l).equals("nic.up[a0]") ? l : nic;
      backbone = KPBS.name(l).equals("backbone.out[/a]") ? l : backbone;
    }
    Map<String, LinkRate> r = new java.util.TreeMap<>();
    // a0's NIC at 0.5 MB/s over enough flows; a's backbone side at 1.5 MB/s over too few
    r.put("nic.up[a0]", new LinkRate("nic.up[a0]", 0.5e6, TransferPrediction.MIN_FLOWS, true));
    r.put(
        "backbone.out[/a]",
        new LinkRate("backbone.out[/a]", 1.5e6, TransferPrediction.MIN_FLOWS - 1, true));
    NetworkEstimate est = new NetworkEstimate(0.1, 0.1, 0, r, 40);
    assertEquals(0.5e6, TransferPrediction.linkRate(nic, est, KPBS), 1e-9);
    assertEquals(2e6, TransferPrediction.linkRate(backbone, est, KPBS), 1e-9, "the model's");
    // above the model's rate (1 flow of 1 MB/s): the model's rate
    r.put("nic.up[a0]", new LinkRate("nic.up[a0]", 9e6, TransferPrediction.MIN_FLOWS, true));
    est = new NetworkEstimate(0.1, 0.1, 0, r, 40);
    assertEquals(1e6, TransferPrediction.linkRate(nic, est, KPBS), 1e-9);
    assertEquals(
        0.1 + 1.0,
        TransferPrediction.scheduled(List.of(f("a0", "b0", 1_000_000)), est, KPBS, 0.5),
        1e-9);
  }

  @Test
  void aStageOnOpenConnectionsIsPredictedFromAWarmUpOfNewOnes() {
    // testbed-like: 3 + 3 hosts, NICs 12.5 MB/s, backbone 3 flows; 40 ms round trip. The warm-up
    // opens the 9 host pairs' connections (half its flows); the next stage's 24 flows all reuse
    // them and pay only the grant and their request's round trip, hidden by the hand-over but for
    // the first step
    double nic = 12.5e6;
    LinkModel testbed = LinkModel.kpbs(3, h -> 1, h -> h.substring(0, 1), 12_500_000);
    java.util.Set<String> opened = new java.util.HashSet<>();
    List<MeasuredFlow> warmUp = Flows.connections(0, 6, 3, nic, 40, 40, opened, 1_000_000);
    NetworkEstimate est = NetworkEstimator.estimate(warmUp, Flows.routes(3));
    List<MeasuredFlow> stage = Flows.connections(6, 8, 3, nic, 40, 40, opened, 2_000_000);
    long first = Long.MAX_VALUE;
    long last = 0;
    List<PlannedFlow> traffic = new java.util.ArrayList<>();
    for (MeasuredFlow f : stage) {
      first = Math.min(first, f.startMs());
      last = Math.max(last, f.endMs());
      traffic.add(f(f.srcHost(), f.dstHost(), f.bytes()));
    }
    double measured = (last - first) / 1000.0;
    TransferPrediction.Prediction p = TransferPrediction.ofStage(traffic, est, testbed, 0.05);
    assertEquals(measured, p.scheduledSeconds(), 0.10 * measured, est.describe());
    // the warm-up's backbone, half of it first flows, reads about 10 % low and is not trusted
    assertEquals(
        3 * nic,
        TransferPrediction.linkRate(linkId(testbed, "backbone.out[/a]"), est, testbed),
        1e-9,
        est.describe());
  }

  @Test
  void aRateCountsWhenMeasuredOverEnoughFlowsOnReusedConnections() {
    route(List.of("a0"), List.of("b0"));
    int backbone = linkId(KPBS, "backbone.out[/a]");
    int enough = TransferPrediction.MIN_FLOWS;
    // 40 flows, of which too few on reused connections: the model's rate (2 flows of 1 MB/s)
    NetworkEstimate est =
        withRate("backbone.out[/a]", new LinkRate("backbone.out[/a]", 1.5e6, 40, true, enough - 1));
    assertEquals(2e6, TransferPrediction.linkRate(backbone, est, KPBS), 1e-9);
    est = withRate("backbone.out[/a]", new LinkRate("backbone.out[/a]", 1.5e6, 40, true, enough));
    assertEquals(1.5e6, TransferPrediction.linkRate(backbone, est, KPBS), 1e-9);
  }

  private static NetworkEstimate withRate(String link, LinkRate r) {
    return new NetworkEstimate(0.1, 0.1, 0, Map.of(link, r), r.flows());
  }

  private static int linkId(LinkModel model, String name) {
    for (int l = 0; l < model.linkCount(); l++) {
      if (model.name(l).equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException(name);
  }

  @Test
  void aStagesTransfersGoToTheLinkWithTheMostLeftFirst() {
    // 3 x 3 transfers of 1 MB at 1 MB/s, the 2-flow backbone the bottleneck (4.5 s of bytes); in
    // this order b2's three transfers come last and the list schedule runs them one at a time
    // (6 s); ranked by the load still to come, b2's go first and two run at a time throughout
    List<PlannedFlow> flows = new java.util.ArrayList<>();
    for (String pair :
        List.of("a0b0", "a2b1", "a1b0", "a1b1", "a2b0", "a0b1", "a0b2", "a2b2", "a1b2")) {
      flows.add(f(pair.substring(0, 2), pair.substring(2), 1_000_000));
    }
    assertEquals(6.0, TransferPrediction.scheduled(flows, NetworkEstimate.EMPTY, KPBS, 0), 1e-9);
    double pipelined = TransferPrediction.pipelined(flows, NetworkEstimate.EMPTY, KPBS, 0);
    assertEquals(5.0, pipelined, 1e-9, "ceil(9 / 2) rounds of 1 s");
    assertEquals(
        pipelined,
        TransferPrediction.ofStage(flows, NetworkEstimate.EMPTY, KPBS, 0).scheduledSeconds());
  }

  /** Gives the routes' links their ids, as the coordinator does when the flows register. */
  private static void route(List<String> s, List<String> d) {
    for (String a : s) {
      for (String b : d) {
        KPBS.route(a, b);
      }
    }
  }
}
