/**
 * {@code ./wan-shuffle plan}: reads a traffic matrix CSV ({@link
 * io.wanshuffle.cli.plan.MatrixCsv}), builds the platform (k, β, δ), runs a step scheduler from
 * {@link io.wanshuffle.scheduler.alg.Algorithms} and prints the schedule as JSON ({@link
 * io.wanshuffle.cli.plan.PlanJson}) or as a text report. See docs/cli.md.
 */
package io.wanshuffle.cli.plan;
