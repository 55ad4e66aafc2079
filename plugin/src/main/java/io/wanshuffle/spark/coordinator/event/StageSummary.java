package io.wanshuffle.spark.coordinator.event;

import java.util.List;

/**
 * The final cross-cluster traffic matrix of one stage attempt.
 *
 * @param stage the stage attempt
 * @param shuffleIds shuffles the stage read
 * @param hosts all hosts involved; matrices are indexed {@code [src][dst]} over this list
 * @param registeredBytes bytes registered as demand, per host pair
 * @param realisedBytes bytes reported fetched, per host pair
 * @param steps number of steps that granted something to this stage
 * @param firstDemandMs first registration of the stage, epoch ms (0 if none)
 * @param endMs stage completion as seen by the coordinator, epoch ms
 */
public record StageSummary(
    StageRef stage,
    int[] shuffleIds,
    List<String> hosts,
    long[][] registeredBytes,
    long[][] realisedBytes,
    int steps,
    long firstDemandMs,
    long endMs) {}
