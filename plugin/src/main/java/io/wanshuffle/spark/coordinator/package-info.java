/**
 * The driver-side step coordinator: reduce tasks register their cross-cluster demand, the
 * coordinator plans KPBS steps over the residual traffic matrix and grants them to the receiving
 * tasks within k flows per backbone direction and δ(h) per host.
 *
 * <p>{@link io.wanshuffle.spark.coordinator.StepCoordinator} is the façade that owns the lock; its
 * Javadoc lists the roles along the data path (demand book, demand matrix, planner, step assembler,
 * step tracker) and docs/architecture.md names them in order. {@link
 * io.wanshuffle.spark.coordinator.CoordinatorService} builds it on the driver, {@link
 * io.wanshuffle.spark.coordinator.CoordinatorEndpoint} serves it over Spark's RPC, and {@link
 * io.wanshuffle.spark.coordinator.CoordinatorListener} is the hook the capture observes it by.
 */
package io.wanshuffle.spark.coordinator;
