/**
 * The capture of the plugin's cross-cluster traffic (docs/capture.md): {@link
 * io.wanshuffle.spark.capture.CaptureListener} records, per reduce stage attempt, the transfer
 * matrix in bytes ({@link io.wanshuffle.spark.capture.HostMatrix}), the plans, the realised steps
 * and flows, and publishes them as files ({@link io.wanshuffle.spark.capture.CaptureFiles}: the
 * matrix CSV that {@code ./wan-shuffle plan} reads, the flow log, a Kryo stage record),
 * SparkListener events ({@link io.wanshuffle.spark.capture.WanShuffleStepCompleted}, {@link
 * io.wanshuffle.spark.capture.WanShuffleStageCaptured}) and metrics ({@link
 * io.wanshuffle.spark.capture.WanShuffleMetricsSource}). {@link
 * io.wanshuffle.spark.capture.FlowOverlap} checks the step contract (at most k flows per backbone
 * direction and δ(h) per host holding ports at once) on a flow log.
 */
package io.wanshuffle.spark.capture;
