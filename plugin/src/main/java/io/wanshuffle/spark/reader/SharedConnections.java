package io.wanshuffle.spark.reader;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import javax.annotation.concurrent.GuardedBy;

/**
 * The flows of one executor's granted steps that come from the same source host: they share one
 * connection, so a flow's last byte may come only after the other flows' bytes, whichever was
 * requested first.
 *
 * <p>Why: with several reduce tasks per executor, the coordinator may give one (sender, receiver)
 * flow's byte budget to two tasks of the receiving executor; Spark's block transfer service opens
 * one connection per peer ({@code spark.shuffle.io.numConnectionsPerPeer}, default 1), whose server
 * answers the requests roughly, not strictly, in the order they came. A flow predicted as if it had
 * the connection alone is handed on long before its last byte, while the next flows already use its
 * ports. {@link HandoverPredictor} therefore counts every other flow's bytes on the connection
 * ({@link #bytesSharing(Flow)}) and anchors a flow's own rate at the moment it was left alone on it
 * ({@link #clearedMs(Flow)}).
 *
 * <p>Shared by every gated read of the executor: flows are opened on task and step-opener threads
 * (a step's requests), counted and closed on network threads (its blocks arrived) and task threads
 * (its task ended), and read on any thread that predicts a hand-over. Every field, the flows' own
 * included, is guarded by this object's monitor; every method takes it, is O(flows from the host)
 * and never calls out, so callers may hold their own locks (a step's {@code
 * ArrivalTrackingClient}).
 */
final class SharedConnections {
  /** One flow: a step's bytes from one source host. */
  static final class Flow {
    private final String host;
    private final long bytes;
    private final long requestMs;

    // guarded by the monitor of the SharedConnections that opened the flow
    private long bytesLeft;
    private long clearedMs;
    private boolean closed;

    private Flow(String host, long bytes, long requestMs, long clearedMs) {
      this.host = host;
      this.bytes = bytes;
      this.requestMs = requestMs;
      this.bytesLeft = bytes;
      this.clearedMs = clearedMs;
    }
  }

  /** Open flows per source host, in the order they were opened. */
  @GuardedBy("this")
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
    Flow f = new Flow(host, Math.max(0, bytes), nowMs, q.isEmpty() ? nowMs : -1);
    for (Flow g : q) {
      if (g.clearedMs >= 0) {
        g.clearedMs = -1; // no longer alone
      }
    }
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
   * Removes {@code f} (its step completed, failed or its task ended); a flow left alone on the
   * connection is marked cleared at {@code nowMs}. Idempotent.
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
    } else if (q.size() == 1 && q.peekFirst().clearedMs < 0) {
      q.peekFirst().clearedMs = nowMs;
    }
  }

  /**
   * @param f a flow
   * @return bytes still to arrive of the other open flows from the same host; 0 once none is left
   *     or when {@code f} is closed
   */
  synchronized long bytesSharing(Flow f) {
    if (f.closed) {
      return 0;
    }
    long sharing = 0;
    for (Flow g : byHost.get(f.host)) {
      if (g != f) {
        sharing += Math.max(0, g.bytesLeft);
      }
    }
    return sharing;
  }

  /**
   * When the other open flows on {@code f}'s connection are expected to have brought their last
   * byte if the connection carries them one after the other at {@code bytesPerMs} from one fetch
   * latency after each request (in the order they were opened): the time model of a flow's own
   * prediction. Unlike {@link #bytesSharing(Flow)}, it counts the bytes of a block that is on its
   * way but not complete as arriving: a step granted on a port handed on ahead of its end is
   * requested while the previous flow's last block is still in flight, and counted whole, that
   * block would put the next flow's prediction one block late.
   *
   * @param f a flow
   * @param bytesPerMs the connection's rate, bytes/ms (&gt; 0)
   * @param latencyMs fetch latency from a request to its first byte, ms
   * @return epoch ms; -1 when no other flow is open on the connection or {@code f} is closed
   */
  synchronized long othersEndMs(Flow f, double bytesPerMs, long latencyMs) {
    if (f.closed || bytesPerMs <= 0) {
      return -1;
    }
    long end = -1;
    for (Flow g : byHost.get(f.host)) {
      if (g != f) {
        long start = Math.max(end, g.requestMs + latencyMs);
        end = start + (long) Math.ceil(g.bytes / bytesPerMs);
      }
    }
    return end;
  }

  /**
   * @param f a flow
   * @return since when {@code f} has been alone on its connection (its request time if it always
   *     was), epoch ms; -1 while another flow shares it or shared it when it ended
   */
  synchronized long clearedMs(Flow f) {
    return f.clearedMs;
  }

  /**
   * @return open flows over all hosts (for tests and leak checks)
   */
  synchronized int open() {
    int n = 0;
    for (ArrayDeque<Flow> q : byHost.values()) {
      n += q.size();
    }
    return n;
  }
}
