/**
 * Time estimates of a redistribution without a schedule: {@link
 * io.wanshuffle.scheduler.estimate.BruteForceEstimator} computes η_o, the time when every transfer
 * starts at once and the transport shares the network fairly (Wagner, Jeannot, "Modelizing,
 * Predicting and Optimizing Redistribution between Clusters on Low Latency Networks", INRIA
 * RR-5361, sec. 3.1, Fig. 5), in seconds at base speed, on the two-cluster KPBS platform (NICs and
 * the backbone's k); {@link io.wanshuffle.scheduler.estimate.LinkFairShareEstimator} computes the
 * same estimate on a link network (rack uplinks and downlinks, backbone sides) with max-min fair
 * sharing of every link. They answer how much a schedule can gain over Spark's all-at-once fetching
 * on a given traffic matrix.
 */
package io.wanshuffle.scheduler.estimate;
