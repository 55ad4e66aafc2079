package io.wanshuffle.bench.coordinator;

/**
 * The figures of one configuration of {@code bench coordinator}; {@code --format json} prints them
 * as one object under these names.
 *
 * @param mode inprocess or rpc
 * @param hosts hosts per site
 * @param sites sites
 * @param racks racks per site
 * @param tasks reduce tasks
 * @param running tasks running at once
 * @param blocks source hosts per task
 * @param skew Zipf exponent of the blocks' bytes
 * @param k flows per side of the backbone
 * @param algorithm the coordinator's scheduler
 * @param grantLatencyMsP50 median time from a flow's end (its report sent: its ports are free) to
 *     the arrival of the next grant that takes a flow out of the same site, ms (while tasks are
 *     still to launch, so that demand is waiting)
 * @param grantLatencyMsP99 the same, 99th percentile
 * @param grantLatencyMsMax the same, largest
 * @param grantLatencySamples flows the latency was measured on
 * @param grantLatencyMsP99AfterFirstWave grant latency p99 of the flows that ended after the first
 *     wave (once as many tasks had ended as run at once): the stage without its start, where every
 *     running task registered at once and the JVMs are cold, ms; 0 without such flows
 * @param firstGrantSeconds from the first task's launch to the first grant reaching a task, s
 * @param replanMsP50 median time of one re-plan (the scheduler on the residual demand), ms
 * @param replanMsP99 the same, 99th percentile
 * @param plans re-plans
 * @param messagesPerTask RPC messages to the coordinator per task (registrations, polls and step
 *     reports; Spark's own task messages not counted)
 * @param expiredPollsPerTask of those, long-polls per task that the coordinator answered "not yet"
 *     after {@code grant.pollInterval} without a grant (the task asked again)
 * @param driverCpuSeconds CPU time of the driver: the whole driver JVM in rpc mode; in-process the
 *     coordinator's threads and the time spent inside its calls
 * @param peakHeapMb the largest heap in use after a garbage collection, MiB (in-process: with the
 *     simulated tasks)
 * @param makespanSeconds from the first task's launch to the last task's end, s
 * @param lowerBoundSeconds the stage's lower bound (every link at its capacity, every host pair one
 *     flow at a time), s
 * @param makespanOverLowerBound makespan / lower bound
 * @param steps steps granted
 * @param flows flows granted
 * @param tasksComplete tasks whose every byte was granted
 * @param tasksUngated tasks told to fetch ungated, or whose call failed
 * @param linkViolations (link, instant) where the tasks held more flows than the link's capacity
 * @param load the machine's load average (1, 5, 15 min) at the start and at the end
 * @param warmupTasks tasks of the warm-up stage run before the measured one in the same JVMs (0:
 *     none, the measured stage ran on fresh JVMs)
 * @param betaMs β the measured stage's last plan used, ms: the configured β, or with {@code
 *     beta=auto} the start value or what the coordinator adopted from a stage before (the warm-up
 *     stage); -1 without a plan
 */
record BenchResult(
    String mode,
    int hosts,
    int sites,
    int racks,
    int tasks,
    int running,
    int blocks,
    double skew,
    int k,
    String algorithm,
    double grantLatencyMsP50,
    double grantLatencyMsP99,
    double grantLatencyMsMax,
    long grantLatencySamples,
    double grantLatencyMsP99AfterFirstWave,
    double firstGrantSeconds,
    double replanMsP50,
    double replanMsP99,
    long plans,
    double messagesPerTask,
    double expiredPollsPerTask,
    double driverCpuSeconds,
    double peakHeapMb,
    double makespanSeconds,
    double lowerBoundSeconds,
    double makespanOverLowerBound,
    long steps,
    long flows,
    long tasksComplete,
    long tasksUngated,
    long linkViolations,
    String load,
    int warmupTasks,
    double betaMs) {

  /**
   * @return true when every task was granted all its bytes and no link ever held more flows than
   *     its capacity
   */
  boolean contractHeld() {
    return tasksComplete == tasks && tasksUngated == 0 && linkViolations == 0;
  }
}
