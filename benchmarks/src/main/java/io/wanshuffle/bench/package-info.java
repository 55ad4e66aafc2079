/**
 * {@code ./wan-shuffle bench}: benchmark reports of the scheduler. {@link
 * io.wanshuffle.bench.Bench} is the top command; each report lives in its own package ({@code
 * speed}: JMH time and memory of the step schedulers on dense matrices).
 */
package io.wanshuffle.bench;
