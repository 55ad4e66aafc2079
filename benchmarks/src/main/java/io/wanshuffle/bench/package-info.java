/**
 * {@code ./wan-shuffle bench}: benchmark reports of the scheduler. {@link
 * io.wanshuffle.bench.Bench} is the top command; each report lives in its own package ({@code
 * quality}: cost / η of every algorithm; {@code speed}: JMH time and memory of the step schedulers
 * on dense matrices; {@code replan}: time of one re-plan of the plugin's coordinator; {@code
 * liquid}: liquid schedules against DSatur and rack-blind plans). Reports are written under
 * docs/benchmarks/.
 */
package io.wanshuffle.bench;
