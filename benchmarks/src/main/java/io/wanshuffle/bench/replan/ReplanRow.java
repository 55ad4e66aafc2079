package io.wanshuffle.bench.replan;

/**
 * One measured (instance, algorithm) pair of the re-plan benchmark.
 *
 * @param shape matrix shape label ({@code dense}, {@code sparse}, {@code skewed})
 * @param n hosts per cluster (the matrix is n x n)
 * @param k free flows of the platform
 * @param nonZero pairs with data
 * @param algorithm scheduler name
 * @param runs timed runs (after the warm-up); 0 when the first run passed the time limit
 * @param medianWallMs median wall time of one re-plan, ms
 * @param maxWallMs slowest timed run, wall ms
 * @param medianCpuMs median CPU time of the planning thread, ms
 * @param steps steps of the schedule
 * @param firstStepSeconds β + duration of the plan's first step (what the coordinator grants), s
 * @param ratio schedule cost / η lower bound
 * @param note empty, or why the pair has no timing (time limit, error)
 */
public record ReplanRow(
    String shape,
    int n,
    int k,
    int nonZero,
    String algorithm,
    int runs,
    double medianWallMs,
    double maxWallMs,
    double medianCpuMs,
    int steps,
    double firstStepSeconds,
    double ratio,
    String note) {}
