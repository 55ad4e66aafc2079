/**
 * {@code ./wan-shuffle bench}: benchmark reports of the scheduler. {@link
 * io.wanshuffle.bench.Bench} is the {@code bench} command, a subcommand of the root command; each
 * report lives in its own package ({@code speed}: JMH time and memory of the step schedulers on
 * dense matrices; {@code quality}: cost/η per algorithm and k; {@code liquid}: liquid schedules;
 * {@code replan}: time of one re-plan of the plugin's coordinator).
 */
package io.wanshuffle.bench;
