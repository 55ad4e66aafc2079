package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;

/**
 * Test fixture: registrations and demands of stage 3.0, shuffle 7, given as receiving host and
 * (source host, bytes) pairs.
 */
public final class TestDemands {
  public static final StageRef STAGE = new StageRef(3, 0);

  private TestDemands() {}

  /**
   * @param task the task attempt id (its executor is {@code "e" + task})
   * @param dst the receiving host
   * @param srcBytes source host, bytes, source host, bytes, ...
   * @return the registration of stage 3.0, shuffle 7
   */
  public static RegisterDemand register(long task, String dst, Object... srcBytes) {
    return register(STAGE, task, dst, srcBytes);
  }

  /**
   * @param stage the stage attempt
   * @param task the task attempt id (its executor is {@code "e" + task})
   * @param dst the receiving host
   * @param srcBytes source host, bytes, source host, bytes, ...
   * @return the registration of shuffle 7
   */
  public static RegisterDemand register(StageRef stage, long task, String dst, Object... srcBytes) {
    String[] src = new String[srcBytes.length / 2];
    long[] bytes = new long[src.length];
    for (int i = 0; i < src.length; i++) {
      src[i] = (String) srcBytes[2 * i];
      bytes[i] = ((Number) srcBytes[2 * i + 1]).longValue();
    }
    return new RegisterDemand(
        stage.stageId(), stage.attempt(), 7, task, "e" + task, dst, src, bytes);
  }

  /**
   * @param id the demand id (also its task attempt id)
   * @param dst the receiving host
   * @param srcBytes source host, bytes, source host, bytes, ...
   * @return a demand of stage 3.0, shuffle 7, with no grant
   */
  public static Demand demand(long id, String dst, Object... srcBytes) {
    RegisterDemand m = register(id, dst, srcBytes);
    return new Demand(id, STAGE, m.shuffleId(), id, m.executorId(), dst, m.srcHosts(), m.bytes());
  }

  /**
   * Leases on the KPBS platform as links: k flows per side of the backbone, δ per NIC.
   *
   * @param k flows per backbone side
   * @param delta δ per host
   * @param clusterOf the cluster of a host
   * @return the leases
   */
  public static FlowLeases leases(
      int k,
      java.util.function.ToIntFunction<String> delta,
      java.util.function.Function<String, String> clusterOf) {
    return new FlowLeases(
        io.wanshuffle.spark.topology.LinkModel.kpbs(k, delta, clusterOf, 1), clusterOf);
  }

  /**
   * Sets a demand's bytes left from one source as a report would: the demand takes a grant of that
   * source, reports the bytes left and ends the grant (it is left {@link DemandPhase#WAITING}).
   *
   * @param d a demand holding no grant
   * @param i index into its source hosts
   * @param left bytes left from that source
   */
  public static void setRemaining(Demand d, int i, long left) {
    d.grant(new Demand.Grant(1, new int[] {i}, new long[] {1}), true);
    d.reported(i, Math.max(0, d.remaining(i) - left), left);
    d.endGrant();
  }
}
