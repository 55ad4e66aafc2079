/**
 * The first role of the data path: each registered demand and its life cycle ({@link
 * io.wanshuffle.spark.coordinator.demand.Demand}, {@link
 * io.wanshuffle.spark.coordinator.demand.DemandPhase}), the book of demands, the reduce tasks
 * before and around their registration (tasks still to launch, launched, the gather window, the
 * receivers a free flow is kept for), the stages' accounts and their gating decisions.
 */
package io.wanshuffle.spark.coordinator.demand;
