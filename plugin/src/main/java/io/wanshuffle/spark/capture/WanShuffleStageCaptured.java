package io.wanshuffle.spark.capture;

import java.util.List;
import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * SparkListener event posted on the driver's listener bus when a reduce stage attempt with
 * cross-cluster traffic completed: its transfer matrix and step summary, in the event log and the
 * History Server (see {@link WanShuffleStepCompleted} for how it is serialised).
 *
 * @param appId application id
 * @param stageId stage id
 * @param stageAttempt stage attempt
 * @param shuffleIds shuffles read
 * @param algorithm step scheduler ({@code none}: gating off)
 * @param k flow limit
 * @param hosts hosts indexing the matrices
 * @param registeredBytes {@code [src][dst]} cross-cluster bytes registered (the transfer matrix)
 * @param realisedBytes {@code [src][dst]} cross-cluster bytes fetched
 * @param stepIds steps that granted something to the stage
 * @param planIds plans those steps came from
 * @param firstDemandMs first demand registration, epoch ms
 * @param endMs stage end, epoch ms
 * @param captureFile the stage's Kryo capture file, or null when no capture folder is set
 */
public record WanShuffleStageCaptured(
    String appId,
    int stageId,
    int stageAttempt,
    int[] shuffleIds,
    String algorithm,
    int k,
    List<String> hosts,
    long[][] registeredBytes,
    long[][] realisedBytes,
    long[] stepIds,
    long[] planIds,
    long firstDemandMs,
    long endMs,
    String captureFile)
    implements SparkListenerEvent {}
