/**
 * {@code ./wan-shuffle bench replan}: time of one re-plan at a step boundary of the plugin's
 * coordinator on n x n residual matrices (dense, sparse, skewed) per algorithm, against the
 * duration of the step the plan grants; writes {@code docs/benchmarks/replan.md}.
 */
package io.wanshuffle.bench.replan;
