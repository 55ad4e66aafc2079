/**
 * {@code ./wan-shuffle bench quality}: cost/η of the step schedulers per algorithm and k on the
 * GGP/OGGP paper's protocol (Cohen, Jeannot, Padoy, Wagner, sec. 8), on the Facebook coflow trace
 * split into two sites and on large heavy-tailed instances; writes {@code
 * docs/benchmarks/scheduler-quality.md}.
 */
package io.wanshuffle.bench.quality;
