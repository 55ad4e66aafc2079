/**
 * Several applications on one backbone: each link's window of flows split between the drivers of
 * the applications that share a topology. The coordinator publishes its per-link demand ({@link
 * io.wanshuffle.spark.arbiter.LinkDemand}) and asks its share before admitting a flow ({@link
 * io.wanshuffle.spark.arbiter.BackboneShare}); {@link io.wanshuffle.spark.arbiter.Alone} keeps the
 * whole window (no arbiter configured), {@link io.wanshuffle.spark.arbiter.ZooKeeperShare} splits
 * it through ZooKeeper (ephemeral nodes, watches, a deterministic weighted max-min fair split that
 * every driver computes alike, {@code FairSplit}). Depends on the settings and the topology only,
 * not on the coordinator.
 */
package io.wanshuffle.spark.arbiter;
