/**
 * Which cluster each host is in, for the plugin: {@link
 * io.wanshuffle.spark.topology.ClusterTopology} maps a host to {@code /cluster/rack} with Hadoop's
 * {@code DNSToSwitchMapping} built from the {@code spark.hadoop.net.topology.*} keys (through
 * scheduler-core's {@code HostMapping}), so that the reader gates only blocks held in another
 * cluster; hosts outside the topology are treated as same-cluster with every host. On the driver
 * {@link io.wanshuffle.spark.topology.HostCoverageListener} checks the executor hosts as they
 * register ({@link io.wanshuffle.spark.topology.HostCoverage}): it names the unmapped ones, or
 * stops the application with {@code spark.wanshuffle.topology.strict}.
 */
package io.wanshuffle.spark.topology;
