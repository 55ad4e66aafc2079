package io.wanshuffle.spark;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import java.util.concurrent.TimeUnit;

/** Calls to the driver's coordinator over Spark RPC as a gated reader makes them, for tests. */
final class CoordinatorCalls {
  private CoordinatorCalls() {}

  /**
   * Reports a granted one-host step fetched whole, with nothing left to fetch.
   *
   * @param ch the coordinator's channel
   * @param demandId the registered demand
   * @param grant the step's grant
   * @param srcHost its one source host
   * @param bytes the bytes fetched
   * @param seconds longest wait for the answer, seconds
   * @return the coordinator's answer
   * @throws Exception if the call fails or times out
   */
  static GrantReply reportFetched(
      CoordinatorChannel ch,
      long demandId,
      GrantReply grant,
      String srcHost,
      long bytes,
      int seconds)
      throws Exception {
    long now = System.currentTimeMillis();
    return ch.await(
            new AwaitGrant(
                demandId,
                grant.stepId(),
                new String[] {srcHost},
                new long[] {bytes},
                new long[] {0},
                now - 1,
                now))
        .get(seconds, TimeUnit.SECONDS);
  }
}
