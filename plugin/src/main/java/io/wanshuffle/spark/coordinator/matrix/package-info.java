/**
 * The residual demand as one KPBS instance: read under the coordinator's lock ({@link
 * io.wanshuffle.spark.coordinator.matrix.ResidualSnapshot}), built without it into the sender x
 * receiver traffic matrix in bytes and in seconds at the base speed with its platform (k, β, δ)
 * and, topology-aware, its links ({@link io.wanshuffle.spark.coordinator.matrix.DemandMatrix}): the
 * one place where bytes become seconds and a planned transfer's seconds become a byte budget (DGGP
 * paper sec. 2.2).
 */
package io.wanshuffle.spark.coordinator.matrix;
