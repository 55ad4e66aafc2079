/**
 * Workloads for the scheduler: the Facebook coflow trace of the Coflow-Benchmark ({@code
 * FB2010-1Hr-150-0.txt}, Chowdhury and Stoica, "Efficient Coflow Scheduling Without Prior
 * Knowledge", SIGCOMM 2015) read by {@link io.wanshuffle.scheduler.workload.CoflowTrace#parse}, and
 * the conversion of one coflow (one MapReduce shuffle) into the cross-cluster {@link
 * io.wanshuffle.scheduler.TrafficMatrix} of a two-cluster platform by {@link
 * io.wanshuffle.scheduler.workload.TwoClusterSplit}.
 *
 * <p>Units: the trace gives megabytes per reducer; this package turns them into <b>bytes</b> (1 MB
 * = 2^20 bytes, as CoflowSim reads the trace). Divide by a rate in bytes/s ({@link
 * io.wanshuffle.scheduler.workload.CrossClusterShuffle#seconds(double)}) to get the seconds the
 * scheduling model works in.
 */
package io.wanshuffle.scheduler.workload;
