/**
 * A plan becomes one step: the plan's transfers in the order free ports take them ({@link
 * io.wanshuffle.spark.coordinator.assemble.StandingPlan}), offered to the free leases of every link
 * of their routes, with flows kept for heavier receivers about to register and each flow's byte
 * budget split over its receiver's demands ({@link
 * io.wanshuffle.spark.coordinator.assemble.StepAssembler}).
 */
package io.wanshuffle.spark.coordinator.assemble;
