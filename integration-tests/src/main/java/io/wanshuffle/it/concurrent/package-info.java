/**
 * Several applications at once on the testbed: {@code --concurrent N} and {@code --arbiter
 * zookeeper} of {@code run-app} and {@code e2e-bench} ({@link
 * io.wanshuffle.it.concurrent.ConcurrentOptions}), the ZooKeeper server the arbiter uses ({@link
 * io.wanshuffle.it.concurrent.ZooKeeperServer}), starting the copies together ({@link
 * io.wanshuffle.it.concurrent.ConcurrentApps}), the flows of all of them on each link ({@link
 * io.wanshuffle.it.concurrent.AllAppsFlows}) and what the reports say ({@link
 * io.wanshuffle.it.concurrent.ConcurrentReport}).
 */
package io.wanshuffle.it.concurrent;
