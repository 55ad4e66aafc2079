/**
 * The scheduler speed benchmark: JMH time and allocation of the step schedulers on dense n x n
 * traffic matrices with k = n/10, one thread, plus a time-limited probe in a child JVM that
 * measures the heap high-water mark under {@code -Xmx1g} and keeps algorithms that exceed the time
 * limit out of the JMH run. {@link io.wanshuffle.bench.speed.SpeedCommand} runs it all and writes
 * docs/benchmarks/scheduler-speed.md.
 */
package io.wanshuffle.bench.speed;
