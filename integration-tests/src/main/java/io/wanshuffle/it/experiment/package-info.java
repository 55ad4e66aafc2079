/**
 * Measured runs on the testbed: {@link io.wanshuffle.it.experiment.Experiment} builds a testbed and
 * Spark on it, runs driver programs and spark-submit applications on the control host, and measures
 * each run from outside Spark; {@link io.wanshuffle.it.experiment.YarnExperiment} does the same for
 * spark-submit applications on YARN (client or cluster deploy mode), and {@link
 * io.wanshuffle.it.experiment.AppRunner} is what both offer {@code run-app} ({@code RunRecorder}:
 * backbone and link counters, TCP state); {@link io.wanshuffle.it.experiment.PluginSettings} are
 * the settings that turn wan-shuffle on with the testbed's rates and, for the topology-aware
 * variants, its topology file. The demo, the end-to-end benchmark, {@code run-app} and the
 * testbed's integration tests run on it.
 */
package io.wanshuffle.it.experiment;
