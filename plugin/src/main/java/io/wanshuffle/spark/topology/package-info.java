/**
 * Which cluster (site) each host is in, from Hadoop's topology mapping ({@code
 * spark.hadoop.net.topology.*}): {@link io.wanshuffle.spark.topology.ClusterTopology} tells a
 * reduce task which of its blocks are same-cluster (fetched at once) and which cross the backbone
 * (fetched in granted steps).
 */
package io.wanshuffle.spark.topology;
