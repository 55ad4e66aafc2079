/**
 * The network the coordinator plans on: the planning parameters in force as one immutable snapshot
 * ({@link io.wanshuffle.spark.coordinator.network.PlanningParameters}: the links with each link's
 * capacity in flows, β, base speed, algorithm), held and replaced in one place ({@link
 * io.wanshuffle.spark.coordinator.network.LiveParameters}) when the measured network changes them
 * ({@link io.wanshuffle.spark.coordinator.network.MeasuringListener}, {@link
 * io.wanshuffle.spark.coordinator.network.MeasuredPlatform}), and the flows that hold each link now
 * ({@link io.wanshuffle.spark.coordinator.network.FlowLeases}: no link over its capacity, δ-port
 * NICs, DGGP paper sec. 2; topology-aware links, liquid-schedules paper sec. 3).
 */
package io.wanshuffle.spark.coordinator.network;
