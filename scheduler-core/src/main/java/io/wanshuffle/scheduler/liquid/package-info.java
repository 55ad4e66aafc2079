/**
 * Liquid schedules of unit-size transfers (Gabrielyan and Hersch, "Network Topology Aware
 * Scheduling of Collective Communications"): a {@link io.wanshuffle.scheduler.liquid.Traffic} of
 * transfers given as link sets, its load, bottlenecks, duration Λ, liquid throughput, teams and
 * full teams; the exact search for a liquid schedule ({@link
 * io.wanshuffle.scheduler.liquid.LiquidSearch}, sec. 3 with Theorems 1 and 2), DSatur colouring of
 * the conflict graph as the fast fallback ({@link
 * io.wanshuffle.scheduler.liquid.ConflictGraphColoring}, annex) and the round-robin baseline
 * ({@link io.wanshuffle.scheduler.liquid.RoundRobin}, sec. 1.1). The weighted, preemptive
 * generalisation on topologies is {@link io.wanshuffle.scheduler.alg.LiquidStepScheduler}.
 */
package io.wanshuffle.scheduler.liquid;
