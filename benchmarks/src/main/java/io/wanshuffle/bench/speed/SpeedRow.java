package io.wanshuffle.bench.speed;

/**
 * One row of the speed report: an (algorithm, n) pair with its JMH and probe figures.
 *
 * @param algorithm registry name
 * @param n matrix size
 * @param k k = n/10
 * @param probe the cold single-run probe in a child JVM
 * @param jmhMillis JMH average time per schedule call, ms (NaN if not measured)
 * @param jmhErrorMillis JMH 99.9 % confidence half-width, ms (NaN if unknown)
 * @param jmhBestMillis fastest JMH measurement iteration (average per call within it), ms (NaN if
 *     not measured)
 * @param allocBytesPerOp bytes allocated per call (JMH gc profiler, gc.alloc.rate.norm), NaN if
 *     unknown
 */
record SpeedRow(
    String algorithm,
    int n,
    int k,
    ProbeResult probe,
    double jmhMillis,
    double jmhErrorMillis,
    double jmhBestMillis,
    double allocBytesPerOp) {}
