package io.wanshuffle.spark.coordinator.network;

/**
 * A directed pair of hosts: the source of cross-cluster blocks and the host of the reduce task that
 * fetches them. A flow of a step is one such pair.
 *
 * @param src host that serves the blocks
 * @param dst host that fetches them
 */
public record HostPair(String src, String dst) {}
