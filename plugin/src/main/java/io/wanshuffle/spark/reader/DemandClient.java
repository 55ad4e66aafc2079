package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.ReleaseDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.concurrent.CompletableFuture;

/**
 * What a reduce task needs from the coordinator. Calls never block; a failed or timed-out call
 * completes its future exceptionally. {@link CoordinatorChannel} implements it over Spark RPC.
 */
interface DemandClient {
  /**
   * @return the registration of a demand
   */
  CompletableFuture<Registered> register(RegisterDemand m);

  /**
   * @return the next grant (long-poll), carrying the previous step's report
   */
  CompletableFuture<GrantReply> await(AwaitGrant m);

  /** One-way: the task ended before its demand was complete, or went ungated. */
  void release(ReleaseDemand m);

  /** One-way: bytes fetched without gating, for the capture. */
  void report(UngatedReport m);

  /** One-way: the last block of a step reported ahead of its end arrived, for the capture. */
  void arrived(FlowArrived m);
}
