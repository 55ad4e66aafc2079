/**
 * {@code ./wan-shuffle bench quality}: the scheduler quality report
 * (docs/benchmarks/scheduler-quality.md), cost / η of every registered algorithm, η being the lower
 * bound of the GGP/OGGP paper (Cohen, Jeannot, Padoy, Wagner, sec. 5). The instances: the random
 * graphs of that paper's experiments ({@link io.wanshuffle.bench.quality.PaperProtocol}, sec. 8.1),
 * the Facebook coflow trace split between two clusters, and large matrices with heavy-tailed
 * amounts ({@link io.wanshuffle.bench.quality.HeavyTailed}). Seeds are fixed, so a rerun gives the
 * same ratios.
 */
package io.wanshuffle.bench.quality;
