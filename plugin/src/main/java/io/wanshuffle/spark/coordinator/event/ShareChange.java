package io.wanshuffle.spark.coordinator.event;

/**
 * This application's share of a shared link's window moved: the flows the arbiter lets it hold on
 * the link when several applications use the backbone ({@code io.wanshuffle.spark.arbiter}). Told
 * only when the flows the coordinator admits on the link change; a share equal to the whole window
 * before and after is no change.
 *
 * @param link the link's name as the topology and the reports write it, e.g. {@code
 *     backbone.out[/A]}
 * @param capacity its capacity in flows at its configured rate
 * @param window its own window in flows (what this application alone would hold: the capacity
 *     unless {@code spark.wanshuffle.window=adaptive} moved it)
 * @param from this application's share before, flows (the whole window when it had no share)
 * @param to this application's share from now on, flows, 0..{@code window}
 * @param otherApplications the other applications with demand on the link in the arbiter's last
 *     snapshot of them, or -1 when the arbiter does not say
 * @param atMs when, epoch ms (driver clock)
 */
public record ShareChange(
    String link, int capacity, int window, int from, int to, int otherApplications, long atMs) {}
