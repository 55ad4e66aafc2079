/**
 * The Spark jobs run on the testbed, and what they report. Each job generates its data in map tasks
 * pinned to chosen hosts and reads the shuffle in reduce tasks pinned to others ({@link
 * io.wanshuffle.it.job.Placement}), and returns rows in a deterministic order, so that runs with
 * Spark's sort shuffle and with wan-shuffle compare row by row.
 *
 * <p>Jobs of the testbed's driver program ({@link io.wanshuffle.it.job.DriverMain}: a {@link
 * io.wanshuffle.it.job.JobRequest} in, a {@link io.wanshuffle.it.job.JobResult} out): the TPC-H
 * join ({@code TpchJoinQuery}) and the shuffle of a given traffic matrix ({@code
 * MatrixShuffleJob}), with the stage figures of each run ({@link io.wanshuffle.it.job.RunResult},
 * {@code StageRecorder}, {@code ShuffleMatrix}, {@link io.wanshuffle.it.job.MarginalFit}). Jobs of
 * the in-JVM end-to-end tests, each with a plain-Java oracle: {@link
 * io.wanshuffle.it.job.ShuffleJobs} over {@link io.wanshuffle.it.job.TestData} and a {@link
 * io.wanshuffle.it.job.JobLayout}. {@link io.wanshuffle.it.job.TpchRunsMain} runs the TPC-H join as
 * a spark-submit application on cluster managers that add and remove executors (YARN). The classes
 * live in the module's main code so that executors load them from the module jar.
 */
package io.wanshuffle.it.job;
