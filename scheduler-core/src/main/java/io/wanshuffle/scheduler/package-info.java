/**
 * The KPBS (k-Preemptive Bipartite Scheduling) model: a {@link
 * io.wanshuffle.scheduler.TrafficMatrix} between the sender nodes of one cluster and the receiver
 * nodes of the other, a {@link io.wanshuffle.scheduler.Platform} (k, β, δ per node), and the {@link
 * io.wanshuffle.scheduler.Schedule} of {@link io.wanshuffle.scheduler.Step}s that a {@link
 * io.wanshuffle.scheduler.StepScheduler} computes.
 *
 * <p>Units: every amount and duration in this package is in <b>seconds at base speed</b> (the time
 * one flow at the base speed needs to move the bytes; see {@link
 * io.wanshuffle.scheduler.BaseSpeed}). The model follows Cohen, Jeannot, Padoy, Wagner, "Messages
 * Scheduling for Parallel Data Redistribution between Clusters" (IEEE TPDS 2006), sec. 2, and its
 * δ-port generalisation in Jeannot, Wagner, "Messages Scheduling for Data Redistribution between
 * Heterogeneous Clusters" (the DGGP paper), sec. 2.
 */
package io.wanshuffle.scheduler;
