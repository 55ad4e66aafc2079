/**
 * The messages between reduce tasks (executors) and the driver's step coordinator. They travel over
 * Spark's RPC (Java serialisation), so they hold only ids, longs and short arrays.
 *
 * <p>Conversation of one gated reduce task: {@link
 * io.wanshuffle.spark.coordinator.protocol.RegisterDemand} (ask, answered at once with {@link
 * io.wanshuffle.spark.coordinator.protocol.Registered}); then repeatedly {@link
 * io.wanshuffle.spark.coordinator.protocol.AwaitGrant} (long-poll ask, carrying the report of the
 * previous step) answered with a {@link io.wanshuffle.spark.coordinator.protocol.GrantReply};
 * {@link io.wanshuffle.spark.coordinator.protocol.ReleaseDemand} (one-way) when the task ends
 * early. Ungated tasks send {@link io.wanshuffle.spark.coordinator.protocol.UngatedReport}
 * (one-way) for the capture.
 */
package io.wanshuffle.spark.coordinator.protocol;
