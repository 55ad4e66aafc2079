package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * One-way, for the capture only: a task fetched its cross-cluster blocks without gating (algorithm
 * {@code none}, or fallback after the coordinator could not be reached).
 *
 * @param demandId the demand id if the task had registered before going ungated, else 0
 * @param demand what the task fetched across clusters without gating (bytes per source host)
 * @param startMs when the fetch started, epoch ms
 * @param endMs when the task's read finished, epoch ms
 */
public record UngatedReport(long demandId, RegisterDemand demand, long startMs, long endMs)
    implements Serializable {}
