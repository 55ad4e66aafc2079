/**
 * The capture: what the driver's step coordinator planned and what the reduce tasks realised, for
 * every reduce stage with cross-cluster traffic. {@link
 * io.wanshuffle.spark.capture.CaptureListener} (a coordinator listener on the driver) records the
 * traffic matrix in bytes ({@link io.wanshuffle.spark.capture.HostMatrix}), the plans, the realised
 * steps and flows, and publishes them as files ({@link io.wanshuffle.spark.capture.CaptureFiles},
 * Kryo and CSV), as SparkListener events in the event log and as metrics in Spark's metrics system.
 * {@link io.wanshuffle.spark.capture.FlowOverlap} checks the step contract (at most k flows, δ(h)
 * per host, at any instant) on realised flows.
 */
package io.wanshuffle.spark.capture;
