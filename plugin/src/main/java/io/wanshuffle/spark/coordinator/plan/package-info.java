/**
 * Planning: the configured step scheduler within its time budget and its fallback chain ({@link
 * io.wanshuffle.spark.coordinator.plan.Planner}), the planner thread's loop ({@link
 * io.wanshuffle.spark.coordinator.plan.PlanningLoop}), what barrier and pipelined steps do
 * differently ({@link io.wanshuffle.spark.coordinator.plan.StepMode}) and the order in which free
 * ports take a plan's transfers ({@link
 * io.wanshuffle.spark.coordinator.plan.BottleneckFirstOrder}).
 */
package io.wanshuffle.spark.coordinator.plan;
