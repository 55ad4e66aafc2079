/**
 * What the coordinator tells and when: the {@link
 * io.wanshuffle.spark.coordinator.event.CoordinatorListener} interface and its events (demands,
 * plans, steps, realised transfers, stage summaries, a link's window or this application's share of
 * it moving), the fan-out that keeps a failing listener from breaking a shuffle ({@link
 * io.wanshuffle.spark.coordinator.event.Listeners}), the timer the coordinator's deadlines and
 * windows fire on, and the one logger of its driver-log lines. The bottom of the coordinator's
 * packages: it imports none of them. The capture and the UI depend on these types.
 */
package io.wanshuffle.spark.coordinator.event;
