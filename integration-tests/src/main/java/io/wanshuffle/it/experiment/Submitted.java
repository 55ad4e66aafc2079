package io.wanshuffle.it.experiment;

import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.TcpTrace;
import java.nio.file.Path;

/**
 * What one spark-submit run produced, with the backbone measured around it.
 *
 * @param name run name
 * @param failure null when spark-submit exited with 0, else why not ({@code exit 1}, a timeout)
 * @param startMs when spark-submit started, epoch ms
 * @param endMs when it ended, epoch ms
 * @param stdout the application's standard output
 * @param driverLog Spark's log of the driver (the driver JVM's stderr)
 * @param eventLog the application's Spark event log ({@code spark.eventLog.*}: a file, or a rolling
 *     log's folder if the submission's settings asked for one; the first application's when the
 *     driver ran several), or null if it wrote none
 * @param captureDir the plugin's capture folder, or null without the plugin's capture listener
 * @param backbone the backbone recording over the run (null on the loopback testbed)
 * @param tcp the cross-cluster TCP connections sampled over the run, or null when {@link
 *     Experiment#sampleTcp} is off
 * @param links every link's counters over the run (null on the loopback testbed)
 */
public record Submitted(
    String name,
    String failure,
    long startMs,
    long endMs,
    Path stdout,
    Path driverLog,
    Path eventLog,
    Path captureDir,
    BackboneTrace backbone,
    TcpTrace tcp,
    LinkTrace links) {}
