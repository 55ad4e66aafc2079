package io.wanshuffle.spark.measure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The application's running measurement: keeps the most recent {@value #WINDOW} realised flows and
 * the estimate over them ({@link NetworkEstimator}), recomputed when asked for after a flow ended.
 * Thread-safe; the estimate is computed on a copy of the flows outside the meter's lock, so adding
 * a flow never waits for an estimate being computed.
 */
public final class NetworkMeter {
  /** Most recent flows the estimate is computed over. */
  public static final int WINDOW = 2000;

  private final NetworkEstimator.Routes routes;
  private final Deque<MeasuredFlow> flows = new ArrayDeque<>();
  private NetworkEstimate estimate = NetworkEstimate.EMPTY;

  /**
   * Flows added so far (those that were usable); the estimate is of the flows up to {@link #of}.
   */
  private long added;

  /** The value of {@link #added} the current {@link #estimate} was computed at. */
  private long of;

  /**
   * @param routes the links of each flow's route
   */
  public NetworkMeter(NetworkEstimator.Routes routes) {
    this.routes = routes;
  }

  /**
   * Adds a flow that ended; flows that are not {@link MeasuredFlow#usable()} are ignored.
   *
   * @param flow the flow
   */
  public synchronized void add(MeasuredFlow flow) {
    if (!flow.usable()) {
      return;
    }
    flows.addLast(flow);
    if (flows.size() > WINDOW) {
      flows.removeFirst();
    }
    added++;
  }

  /**
   * @return the estimate over the flows added so far (the last {@value #WINDOW}); {@link
   *     NetworkEstimate#EMPTY} before the first
   */
  public NetworkEstimate estimate() {
    List<MeasuredFlow> copy;
    long at;
    synchronized (this) {
      if (of == added) {
        return estimate;
      }
      copy = new ArrayList<>(flows);
      at = added;
    }
    NetworkEstimate e = NetworkEstimator.estimate(copy, routes);
    synchronized (this) {
      if (at > of) {
        estimate = e;
        of = at;
      }
    }
    return e;
  }

  /**
   * @return true when a flow was added since the estimate was last computed (the next {@link
   *     #estimate()} computes it again)
   */
  public synchronized boolean stale() {
    return of != added;
  }

  /**
   * @return the flows held, oldest first
   */
  public synchronized List<MeasuredFlow> flows() {
    return List.copyOf(flows);
  }
}
