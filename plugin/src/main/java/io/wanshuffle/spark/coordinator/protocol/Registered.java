package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * The coordinator's answer to {@link RegisterDemand}.
 *
 * @param demandId id to quote in later messages
 * @param gated true: fetch cross-cluster blocks only inside granted steps; false: fetch them now
 *     (algorithm {@code none})
 */
public record Registered(long demandId, boolean gated) implements Serializable {}
