package io.wanshuffle.spark.coordinator.event;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import java.util.List;

/**
 * A plan computed over the residual cross-cluster demand.
 *
 * @param planId plan number, increasing from 1
 * @param atMs when it was computed, epoch ms
 * @param algorithm the scheduler's name
 * @param senders sending hosts: row i of the matrix is {@code senders.get(i)}
 * @param receivers receiving hosts: column j is {@code receivers.get(j)}
 * @param residualBytes bytes still to move from sender i to receiver j ({@link
 *     ResidualBytes#bytesAt}), as the non-zero cells of the senders x receivers matrix (demands of
 *     tasks currently fetching an earlier step are left out)
 * @param bytesPerSecond base speed used to turn bytes into seconds
 * @param platform k, β (seconds) and δ per node, after subtracting flows still open
 * @param schedule the steps in seconds at base speed (indices refer to senders / receivers)
 * @param planNanos time spent in the scheduler, ns
 */
public record PlanEvent(
    long planId,
    long atMs,
    String algorithm,
    List<String> senders,
    List<String> receivers,
    ResidualBytes residualBytes,
    long bytesPerSecond,
    Platform platform,
    Schedule schedule,
    long planNanos) {}
