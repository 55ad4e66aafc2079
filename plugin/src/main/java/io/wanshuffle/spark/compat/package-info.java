/**
 * What differs between the Spark lines and Scala versions the plugin is built for. The core (every
 * other package) is compiled against each supported line together with one line folder and one
 * Scala folder, which hold classes of the same names in this package:
 *
 * <ul>
 *   <li>{@code SparkLine} (one per Spark line: 3.5, 4.0, 4.1, 4.2): the line's name, the reader's
 *       {@code ExternalSorter} construction as that line's {@code BlockStoreShuffleReader.read()}
 *       does it, and {@code LinePage}, which serves a {@link io.wanshuffle.spark.compat.TabPage} of
 *       the WAN Shuffle tab in the line's UI (servlet request type and {@code
 *       UIUtils.headerSparkPage} signature of the line);
 *   <li>{@code ScalaCollections} (one per Scala version: 2.12, 2.13): conversions between Java and
 *       Scala collections.
 * </ul>
 *
 * <p>Version-neutral: {@link io.wanshuffle.spark.compat.LineCheck} refuses to start a jar in a
 * Spark of another line or Scala version; {@link io.wanshuffle.spark.compat.ScalaFutures} turns
 * Spark's RPC answers into Java futures completed on the answering thread.
 */
package io.wanshuffle.spark.compat;
