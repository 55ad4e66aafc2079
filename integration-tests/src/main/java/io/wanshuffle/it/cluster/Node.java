package io.wanshuffle.it.cluster;

/**
 * One worker node of a loopback cluster.
 *
 * @param name short name, {@code <cluster>-<index>} (for example {@code clusterA-1}); names the
 *     node's log file and work folder
 * @param cluster cluster name (for example {@code clusterA})
 * @param rack network path of the node's rack as Hadoop's topology mapping reports it (for example
 *     {@code /clusterA/rack1})
 * @param host the node's loopback address (for example {@code 127.0.1.1}); Spark reports this as
 *     the executor host and block manager host
 */
public record Node(String name, String cluster, String rack, String host) {}
