/**
 * {@code ./wan-shuffle bench liquid}: the liquid-schedule report (docs/benchmarks/liquid.md). Part
 * 1 repeats the comparison of the liquid-schedules paper (Gabrielyan, Hersch, annex, Fig. 11) of
 * DSatur colouring against the exact liquid search on sub-topologies of the Swiss-T1 K-ring ({@link
 * io.wanshuffle.bench.liquid.SwissT1Ring}, sec. 2, Fig. 4); parts 2 and 3 compare the
 * topology-aware {@code liquid} step scheduler with rack-blind {@code auto} on two-cluster
 * topologies with oversubscribed rack uplinks built from the Facebook coflow trace ({@link
 * io.wanshuffle.bench.liquid.FacebookRacks}).
 */
package io.wanshuffle.bench.liquid;
