/**
 * {@code ./wan-shuffle bench replan}: how long one re-plan of the plugin's coordinator takes (wall
 * and CPU time of one {@code StepScheduler.schedule} call on a residual matrix of n x n hosts,
 * {@link io.wanshuffle.bench.replan.ResidualInstances}) against the step it grants (β plus the
 * first step's duration, seconds), per algorithm, written to docs/benchmarks/replan.md. It sizes
 * the plugin's planning time budget ({@code spark.wanshuffle.planning.budget}).
 */
package io.wanshuffle.bench.replan;
