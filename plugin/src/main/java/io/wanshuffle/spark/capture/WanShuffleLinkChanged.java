package io.wanshuffle.spark.capture;

import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * SparkListener event posted on the driver's listener bus when a shared link's window or this
 * application's share of it moved ({@link LinkChange}); serialised like {@link
 * WanShuffleStepCompleted} (Jackson, the class name in the event log's {@code Event} field), so the
 * WAN Shuffle tab, the History Server and {@code ./wan-shuffle report} see it.
 *
 * @param appId application id
 * @param change the link, what moved and its window and share from then on (flows, epoch ms)
 */
public record WanShuffleLinkChanged(String appId, LinkChange change)
    implements SparkListenerEvent {}
