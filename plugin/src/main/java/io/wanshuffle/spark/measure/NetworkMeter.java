package io.wanshuffle.spark.measure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The application's running measurement: keeps the most recent {@value #WINDOW} realised flows and
 * the estimate over them ({@link NetworkEstimator}), recomputed when asked for after a flow ended.
 * Thread-safe.
 */
public final class NetworkMeter {
  /** Most recent flows the estimate is computed over. */
  public static final int WINDOW = 2000;

  private final NetworkEstimator.Routes routes;
  private final Deque<MeasuredFlow> flows = new ArrayDeque<>();
  private NetworkEstimate estimate = NetworkEstimate.EMPTY;
  private boolean stale;

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
    stale = true;
  }

  /**
   * @return the estimate over the flows added so far (the last {@value #WINDOW}); {@link
   *     NetworkEstimate#EMPTY} before the first
   */
  public synchronized NetworkEstimate estimate() {
    if (stale) {
      estimate = NetworkEstimator.estimate(new ArrayList<>(flows), routes);
      stale = false;
    }
    return estimate;
  }

  /**
   * @return the flows held, oldest first
   */
  public synchronized List<MeasuredFlow> flows() {
    return List.copyOf(flows);
  }
}
