/**
 * The WAN Shuffle tab of the Spark UI and the History Server: {@link
 * io.wanshuffle.spark.ui.WanShuffleStatusListener} keeps the capture's listener events ({@link
 * io.wanshuffle.spark.capture.WanShuffleStageCaptured}, {@link
 * io.wanshuffle.spark.capture.WanShuffleStepCompleted}, {@link
 * io.wanshuffle.spark.capture.WanShuffleLinkChanged}) in the application's status store; {@link
 * io.wanshuffle.spark.ui.WanShuffleTab} shows the gated stages (matrix summary, k, steps, bytes,
 * flows per link, lower bound, predicted and measured transfer time), the shared links' windows and
 * this application's shares of them over time, and a page per stage with its links and step table,
 * and the executor hosts the topology maps and those it does not ({@link
 * io.wanshuffle.spark.topology.WanShuffleTopologyHost} events). The driver attaches both to the
 * live UI ({@link io.wanshuffle.spark.ui.WanShuffleUi#attachLive}); the History Server finds {@link
 * io.wanshuffle.spark.ui.WanShuffleHistoryServerPlugin} through the plugin jar's service file.
 */
package io.wanshuffle.spark.ui;
