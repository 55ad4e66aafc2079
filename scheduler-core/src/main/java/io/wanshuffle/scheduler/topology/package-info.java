/**
 * The network topology of a cross-cluster redistribution: hosts mapped to {@code /cluster/rack} by
 * Hadoop's {@code DNSToSwitchMapping} ({@link io.wanshuffle.scheduler.topology.Topology}), the
 * links each transfer uses with their rates ({@link
 * io.wanshuffle.scheduler.topology.TopologyConfig}, format in docs/topology.md), and the {@link
 * io.wanshuffle.scheduler.topology.LinkNetwork} of a traffic matrix with capacities in flows
 * (base-speed rule of the DGGP paper, sec. 2.2-2.3), with the generalised lower bound ({@link
 * io.wanshuffle.scheduler.topology.LinkLowerBound}) and the per-link validator ({@link
 * io.wanshuffle.scheduler.topology.LinkCapacityValidator}).
 */
package io.wanshuffle.scheduler.topology;
