/**
 * Spark standalone and YARN on a testbed. {@link io.wanshuffle.it.spark.SparkCluster} starts the
 * Master on the control host and one Worker per worker host of any {@link
 * io.wanshuffle.it.net.Testbed}, launches drivers and spark-submit there, gives the settings
 * applications need, and kills executors for fault tests; {@link
 * io.wanshuffle.it.spark.ClusterOptions} says what the Workers offer. {@link
 * io.wanshuffle.it.spark.SparkHome} is the folder of Spark's jars the processes run from, {@link
 * io.wanshuffle.it.spark.AppJars} the jars shipped to executors with {@code spark.jars}. {@link
 * io.wanshuffle.it.spark.YarnCluster} starts a YARN ResourceManager on the control host and a
 * NodeManager on every worker host from the jars of a {@link io.wanshuffle.it.spark.YarnHome}
 * (Spark 4.2 with spark-yarn, the Hadoop YARN servers) and runs {@code spark-submit --master yarn}
 * there.
 */
package io.wanshuffle.it.spark;
