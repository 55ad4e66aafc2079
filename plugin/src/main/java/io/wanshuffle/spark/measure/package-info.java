/**
 * Measurement of the network the plugin runs on, from the cross-site flows it realised: each link's
 * achieved rate and the step setup delay β ({@link io.wanshuffle.spark.measure.NetworkEstimator},
 * {@link io.wanshuffle.spark.measure.NetworkEstimate}), kept up to date as flows end by {@link
 * io.wanshuffle.spark.measure.NetworkMeter}; and the prediction of a stage's cross-site transfer
 * phase from them, as scheduled and as Spark's default would run it ({@link
 * io.wanshuffle.spark.measure.TransferPrediction}). Estimates use medians, quantiles and Theil-Sen
 * fits, so stragglers do not move them. The model is the one of the redistribution-prediction paper
 * (Wagner and Jeannot, INRIA RR-5361): flows sending on a link at the same instant share its rate
 * equally, a flow sends after a lead (its request's round trip and TCP's ramp), and each step costs
 * β before its flows run at their share.
 */
package io.wanshuffle.spark.measure;
