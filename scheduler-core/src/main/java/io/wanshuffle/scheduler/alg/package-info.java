/**
 * The step schedulers, one algorithm per class behind {@link
 * io.wanshuffle.scheduler.StepScheduler}, looked up by name in {@link
 * io.wanshuffle.scheduler.alg.Algorithms}: each takes a traffic matrix (seconds at base speed,
 * senders x receivers) and a platform (k, β in seconds, δ per node) and returns a schedule that
 * passes {@link io.wanshuffle.scheduler.Schedule#validate}.
 *
 * <ul>
 *   <li>{@link io.wanshuffle.scheduler.alg.Ggp} and {@link io.wanshuffle.scheduler.alg.Oggp}: GGP
 *       and OGGP, 2-approximations of KPBS (Cohen, Jeannot, Padoy, Wagner, "Messages Scheduling for
 *       Parallel Data Redistribution between Clusters", sec. 6.1 and 6.3, Fig. 4, 7 and 9);
 *   <li>{@link io.wanshuffle.scheduler.alg.Dggp}: their δ-port extension (Jeannot, Wagner,
 *       "Messages Scheduling for Data Redistribution between Heterogeneous Clusters", sec. 3, Fig.
 *       5);
 *   <li>{@link io.wanshuffle.scheduler.alg.HeuristicOnWeights} and {@link
 *       io.wanshuffle.scheduler.alg.HeuristicOnDegrees}: the GGP/OGGP paper's heuristics (sec. 7,
 *       Fig. 10), baselines;
 *   <li>{@link io.wanshuffle.scheduler.alg.ExactScheduler}: the optimum of tiny instances, for
 *       measuring the others' gaps;
 *   <li>{@link io.wanshuffle.scheduler.alg.Auto}: our default, a portfolio of OGGP, DGGP and our
 *       own batchings and greedy, each improved by a compaction pass, keeping the cheapest valid
 *       schedule;
 *   <li>{@link io.wanshuffle.scheduler.alg.LiquidStepScheduler}: steps on a topology whose links
 *       (rack uplinks, backbone sides) carry at most their capacity in flows, after the liquid
 *       schedules of Gabrielyan and Hersch, "Network Topology Aware Scheduling of Collective
 *       Communications", sec. 3.
 * </ul>
 *
 * The package-private classes are these algorithms' phases (rounding to quanta, the weight-regular
 * extension, peeling, compaction) and the candidates {@code auto} combines. Algorithms and their
 * measured quality: docs/scheduler-algorithms.md and docs/scheduler-baselines.md.
 */
package io.wanshuffle.scheduler.alg;
