/**
 * {@code ./wan-shuffle bench liquid}: quality of liquid schedules (Gabrielyan and Hersch): DSatur
 * against the exact liquid search on the Swiss-T1 K-ring, and {@code liquid} against rack-blind
 * {@code auto} on two-site Facebook-trace topologies with oversubscribed rack uplinks; writes
 * {@code docs/benchmarks/liquid.md}.
 */
package io.wanshuffle.bench.liquid;
