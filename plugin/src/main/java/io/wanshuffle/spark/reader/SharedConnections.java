package io.wanshuffle.spark.reader;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The flows of one executor's granted steps that come from the same source host, in the order
 * their first requests were sent: they share one connection, so a flow's bytes arrive after (or
 * interleaved with) the bytes of the flows requested before it.
 *
 * <p>Why: with several reduce tasks per executor, the coordinator may give one (sender, receiver)
 * flow's byte budget to two tasks of the receiving executor; Spark's block transfer service opens
 * one connection per peer ({@code spark.shuffle.io.numConnectionsPerPeer}, default 1), whose server
 * answers the requests in the order they came. Measured on the testbed (2 cores per executor): a
 * task whose 19.8 MB were requested 4 ms after another task's 19.8 MB from the same host predicted
 * its hand-over as if it had the connection alone, reported 1.6 s after its request and received
 * its last byte 3 s after that, while the next flows already used the ports.
 * {@link HandoverPredictor} therefore counts the bytes ahead of a flow on its connection
 * ({@link #bytesAhead(Flow)}) and anchors a flow's own rate at the moment those bytes cleared
 * ({@link Flow#clearedMs}).
 *
 * <p>Thread-safe; every method is O(flows from the host) and never calls out, so callers may hold
 * their own locks.
 */
final class SharedConnections {
  /** One flow: a step's bytes from one source host. */
  static final class Flow {
    private final String host;
    private long bytesLeft;
    private long clearedMs;
    private boolean closed;

    private Flow(String host, long bytes, long clearedMs) {
      this.host = host;
      this.bytesLeft = bytes;
      this.clearedMs = clearedMs;
    }
  }

  private final Map<String, ArrayDeque<Flow>> byHost = new HashMap<>();

  /**
   * Records a flow whose first request was just sent.
   *
   * @param host source host
   * @param bytes bytes the flow is to bring (as Spark's map statuses give them), &ge; 0
   * @param nowMs the request time, epoch ms
   * @return the flow, to pass to the other methods
   */
  synchronized Flow open(String host, long bytes, long nowMs) {
    ArrayDeque<Flow> q = byHost.computeIfAbsent(host, h -> new ArrayDeque<>());
    Flow f = new Flow(host, Math.max(0, bytes), q.isEmpty() ? nowMs : -1);
    q.addLast(f);
    return f;
  }

  /**
   * Counts bytes of {@code f} that arrived; a flow whose bytes all arrived leaves its connection.
   *
   * @param f an open flow (closed flows are ignored)
   * @param bytes bytes that arrived
   * @param nowMs arrival time, epoch ms
   */
  synchronized void arrived(Flow f, long bytes, long nowMs) {
    if (f.closed) {
      return;
    }
    f.bytesLeft -= bytes;
    if (f.bytesLeft <= 0) {
      close(f, nowMs);
    }
  }

  /**
   * Removes {@code f} (its step completed, failed or its task ended); the flows behind it whose
   * bytes are now first on the connection are marked cleared at {@code nowMs}. Idempotent.
   *
   * @param f a flow
   * @param nowMs epoch ms
   */
  synchronized void close(Flow f, long nowMs) {
    if (f.closed) {
      return;
    }
    f.closed = true;
    f.bytesLeft = 0;
    ArrayDeque<Flow> q = byHost.get(f.host);
    q.remove(f);
    if (q.isEmpty()) {
      byHost.remove(f.host);
    } else if (q.peekFirst().clearedMs < 0) {
      q.peekFirst().clearedMs = nowMs;
    }
  }

  /**
   * @param f a flow
   * @return bytes still to arrive of the open flows from the same host requested before {@code f};
   *     0 once none is left or when {@code f} is closed
   */
  synchronized long bytesAhead(Flow f) {
    if (f.closed) {
      return 0;
    }
    long ahead = 0;
    for (Flow g : byHost.get(f.host)) {
      if (g == f) {
        break;
      }
      ahead += Math.max(0, g.bytesLeft);
    }
    return ahead;
  }

  /**
   * @param f a flow
   * @return when no flow was ahead of {@code f} any more (its request time if none was), epoch ms;
   *     -1 while one still is
   */
  synchronized long clearedMs(Flow f) {
    return f.clearedMs;
  }

  /** @return open flows over all hosts (for tests and leak checks) */
  synchronized int open() {
    int n = 0;
    for (ArrayDeque<Flow> q : byHost.values()) {
      n += q.size();
    }
    return n;
  }
}
