/**
 * The matching hot loops of the GGP-family schedulers, on primitive arrays: {@link
 * io.wanshuffle.scheduler.matching.BipartiteGraph} (CSR adjacency sorted by weight), Hopcroft-Karp
 * maximum matching, the bottleneck (max-min) perfect matching of the GGP/OGGP paper's Fig. 9, and
 * the incremental {@link io.wanshuffle.scheduler.matching.Peeler} that peels a weight-regular graph
 * into perfect matchings reusing the previous matching. Tests check every result against JGraphT.
 */
package io.wanshuffle.scheduler.matching;
