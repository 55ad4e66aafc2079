package io.wanshuffle.spark.coordinator.matrix;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.network.FlowLeases;

/**
 * Which demands, sources and ports a residual traffic matrix takes in ({@link DemandMatrix}): what
 * barrier and pipelined steps ({@code plan.StepMode}) differ in when the residual is read. Barrier
 * steps take what the free capacity can start now; pipelined steps take every demand's future bytes
 * on the whole platform.
 *
 * <p>Implementations are stateless; called under the coordinator's lock (the platform also off it,
 * on the immutable parts of the leases).
 */
public interface ResidualScope {

  /**
   * @param d a plannable demand
   * @param leases the open flows
   * @return true when {@code d} takes part in the next plan
   */
  boolean admits(Demand d, FlowLeases leases);

  /**
   * @param src a source host of an admitted demand
   * @param leases the open flows
   * @return true when its bytes take part in the next plan
   */
  boolean admitsSource(String src, FlowLeases leases);

  /**
   * @param senders the plan's sending hosts, by row
   * @param receivers the plan's receiving hosts, by column
   * @param backboneFlows the flows the backbone carries for the plan's pairs with traffic, at least
   *     1 (the KPBS k of a pipelined plan)
   * @param leases the open flows and the link limits
   * @param betaSeconds β, seconds
   * @return the platform the plan is made on
   */
  Platform platform(
      String[] senders,
      String[] receivers,
      int backboneFlows,
      FlowLeases leases,
      double betaSeconds);

  /**
   * @return true when a plan is made on the free ports only, so a planned transfer whose ports are
   *     taken is a scheduler's error (barrier steps at a boundary with every port free)
   */
  boolean planFitsFreePorts();
}
