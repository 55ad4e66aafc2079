package io.wanshuffle.spark.coordinator.track;

import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.StageAccount;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.HostPair;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;

/**
 * The granted steps that are running: per step its receivers still fetching, the number of them
 * fetching each host pair (a pair's flow closes when the last one reports), its deadline; and the
 * steps' reports: what each receiver fetched, and the transfers reported ahead of their end
 * (predicted hand-over) whose arrival time is still to come. The last role on the coordinator's
 * data path.
 *
 * <p>A step ends when every receiver reported or took its grant back ({@link #endGrant}), or when
 * its deadline passes ({@link #finish}); a receiver that misses the deadline keeps its flows open,
 * counted in the {@link FlowLeases}, until it reports, so the k and δ limits hold at every instant.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class StepTracker {
  /**
   * A step granted and not over: its event, its receivers' demands still fetching, its deadline.
   */
  private record Running(
      StepEvent event, Set<Long> outstanding, CoordinatorTimer.Cancellable deadline) {}

  /** A step of one demand (the key of a transfer reported ahead of its end). */
  private record DemandStep(long demandId, long stepId) {}

  private final FlowLeases leases;
  private final CoordinatorTimer timer;
  private final DoubleSupplier betaSeconds;
  private final double deadlineFactor;
  private final long minDeadlineMs;
  private final Map<Long, Running> running = new LinkedHashMap<>();

  /** step id -> open pair -> receivers of the step still fetching that pair. */
  private final Map<Long, Map<HostPair, Integer>> openFlows = new HashMap<>();

  /**
   * open pair -> steps in which it is open: the key set of {@link #openFlows}' maps, kept as they
   * change so that {@link #openPairs} costs nothing per step.
   */
  private final Map<HostPair, Integer> openPairSteps = new HashMap<>();

  private final Set<HostPair> openPairsView = Collections.unmodifiableSet(openPairSteps.keySet());

  /** Transfers reported ahead of their end, waiting for their arrival time. */
  private final Map<DemandStep, TransferRecord> arriving = new LinkedHashMap<>();

  private long nextStepId = 1;

  /**
   * @param leases the open flows, closed here as receivers report
   * @param timer schedules the steps' deadlines
   * @param betaSeconds β in force, the setup delay of a step, seconds (read for each deadline)
   * @param deadlineFactor a step's deadline is this many times its planned duration, at least 1
   * @param minDeadlineMs the shortest deadline, ms
   */
  public StepTracker(
      FlowLeases leases,
      CoordinatorTimer timer,
      DoubleSupplier betaSeconds,
      double deadlineFactor,
      long minDeadlineMs) {
    this.leases = leases;
    this.timer = timer;
    this.betaSeconds = betaSeconds;
    this.deadlineFactor = deadlineFactor;
    this.minDeadlineMs = minDeadlineMs;
  }

  /**
   * A step's deadline: max(minDeadline, factor x (β + its longest transfer)) after its grant.
   *
   * @param grantedAtMs the grant, epoch ms
   * @param longestSeconds the step's longest transfer, seconds at the base speed
   * @return the deadline, epoch ms
   */
  long deadlineMs(long grantedAtMs, double longestSeconds) {
    double planned = betaSeconds.getAsDouble() + longestSeconds;
    return grantedAtMs + Math.max(minDeadlineMs, (long) Math.ceil(deadlineFactor * planned * 1000));
  }

  /**
   * @return the id the next started step gets (ids increase from 1 over the application)
   */
  long nextStepId() {
    return nextStepId;
  }

  /**
   * Starts tracking a granted step whose flows are already open in the leases.
   *
   * @param event the step (its id must be {@link #nextStepId()})
   * @param receiversPerPair per host pair of the step, the receivers fetching it
   * @param outstanding the ids of the demands granted in the step
   * @param onDeadline called on the timer's thread with the step id when the deadline passes
   */
  void start(
      StepEvent event,
      Map<HostPair, Integer> receiversPerPair,
      Set<Long> outstanding,
      LongConsumer onDeadline) {
    long stepId = event.stepId();
    nextStepId = stepId + 1;
    openFlows.put(stepId, new HashMap<>(receiversPerPair));
    for (HostPair p : receiversPerPair.keySet()) {
      openPairSteps.merge(p, 1, Integer::sum);
    }
    long delay = event.deadlineMs() - event.grantedAtMs();
    running.put(
        stepId,
        new Running(
            event,
            new LinkedHashSet<>(outstanding),
            timer.schedule(() -> onDeadline.accept(stepId), delay)));
  }

  /**
   * @return true when no step is running
   */
  public boolean isEmpty() {
    return running.isEmpty();
  }

  /**
   * @return the step ids running, oldest first
   */
  public Set<Long> runningIds() {
    return running.keySet();
  }

  /**
   * @param stepId a step
   * @return the demands of the running step still fetching (a copy; empty when not running)
   */
  List<Long> outstanding(long stepId) {
    Running r = running.get(stepId);
    return r == null ? List.of() : List.copyOf(r.outstanding());
  }

  /**
   * @return the host pairs with a flow open, over every step (a read-only view that follows the
   *     steps' grants and reports; O(1))
   */
  Set<HostPair> openPairs() {
    return openPairsView;
  }

  /**
   * Records a receiver's report of its part of a step: bytes fetched per source host, bytes left,
   * and the realised transfer.
   *
   * @param d the reporting demand, holding the grant being reported
   * @param m the report (its {@code doneStepId} is {@code d}'s grant's step)
   * @param nowMs epoch ms (driver clock)
   * @param account the stage's account, or null when the stage is over
   * @return the realised transfer to publish now, or null when it was reported ahead of its end and
   *     waits for its arrival ({@link #arrived})
   */
  TransferRecord report(Demand d, AwaitGrant m, long nowMs, StageAccount account) {
    Demand.Grant g = d.grant();
    long[] fetched = new long[d.src().length];
    for (int i = 0; i < m.srcHosts().length; i++) {
      int idx = d.indexOf(m.srcHosts()[i]);
      if (idx < 0) {
        continue;
      }
      fetched[idx] = Math.max(0, m.fetchedBytes()[i]);
      d.reported(idx, fetched[idx], m.remainingBytes()[i]);
    }
    String[] hosts = new String[g.srcIdx().length];
    long[] bytes = new long[g.srcIdx().length];
    for (int i = 0; i < hosts.length; i++) {
      int idx = g.srcIdx()[i];
      hosts[i] = d.src()[idx];
      bytes[i] = fetched[idx];
      if (account != null) {
        account.add(new HostPair(d.src()[idx], d.dst()), 0, fetched[idx]);
      }
    }
    if (m.reportsAhead()) {
      // the ports are handed on now; the flow's record waits for the time its last block arrived
      long at = Math.max(m.startMs(), nowMs);
      arriving.put(
          new DemandStep(d.id(), g.stepId()),
          record(d, g, hosts, bytes, m.startMs(), at, Math.max(0, m.stalledMs())));
      return null;
    }
    return record(d, g, hosts, bytes, m.startMs(), m.endMs(), 0);
  }

  /** The realised transfer of {@code d}'s part of a step, handed on at its end. */
  private static TransferRecord record(
      Demand d,
      Demand.Grant g,
      String[] hosts,
      long[] bytes,
      long startMs,
      long endMs,
      long stalledMs) {
    return new TransferRecord(
        g.stepId(),
        d.stage(),
        d.shuffleId(),
        d.taskAttemptId(),
        d.dst(),
        List.of(hosts),
        bytes,
        startMs,
        endMs,
        endMs,
        stalledMs);
  }

  /**
   * The arrival of a transfer reported ahead.
   *
   * @param demandId the demand
   * @param stepId its step
   * @param endMs when its last block arrived (task clock, epoch ms)
   * @param reportedMs when it was reported (task clock, epoch ms)
   * @param stalledMs how long its bytes went without advancing after it was handed on, when it
   *     stalled, ms; 0 otherwise
   * @return the realised transfer, or null when unknown or already published
   */
  TransferRecord arrived(long demandId, long stepId, long endMs, long reportedMs, long stalledMs) {
    TransferRecord r = arriving.remove(new DemandStep(demandId, stepId));
    if (r == null) {
      return null;
    }
    long end = Math.max(r.startMs(), endMs);
    return new TransferRecord(
        r.stepId(),
        r.stage(),
        r.shuffleId(),
        r.taskAttemptId(),
        r.dstHost(),
        r.srcHosts(),
        r.bytes(),
        r.startMs(),
        end,
        Math.max(r.startMs(), Math.min(end, reportedMs)),
        Math.max(r.stalledMs(), Math.max(0, stalledMs)));
  }

  /**
   * Takes the transfers reported ahead whose arrival never came (the task failed, the message was
   * lost); they keep their report time as their end.
   *
   * @param stage a stage attempt, or null for every stage
   * @return the transfers taken, in report order
   */
  List<TransferRecord> drainArriving(StageRef stage) {
    List<TransferRecord> out = new ArrayList<>();
    for (Iterator<TransferRecord> it = arriving.values().iterator(); it.hasNext(); ) {
      TransferRecord r = it.next();
      if (stage == null || r.stage().equals(stage)) {
        it.remove();
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Closes the grant {@code d} holds (it reported, was released, went idle or missed the deadline):
   * each pair's flow closes in the leases when its last receiver in the step leaves it; the step
   * ends when {@code d} was its last outstanding receiver.
   *
   * @param d a demand; its {@code grant} is cleared
   * @return the step that ended with this grant (no longer running, its deadline cancelled), or
   *     null
   */
  StepEvent endGrant(Demand d) {
    Demand.Grant g = d.endGrant();
    if (g == null || g.stepId() == 0) {
      return null;
    }
    Map<HostPair, Integer> flows = openFlows.get(g.stepId());
    if (flows != null) {
      for (int idx : g.srcIdx()) {
        HostPair p = new HostPair(d.src()[idx], d.dst());
        Integer n = flows.get(p);
        if (n == null) {
          continue;
        }
        if (n == 1) {
          flows.remove(p);
          openPairSteps.computeIfPresent(p, (k, steps) -> steps == 1 ? null : steps - 1);
          leases.close(p.src(), p.dst());
        } else {
          flows.put(p, n - 1);
        }
      }
      if (flows.isEmpty()) {
        openFlows.remove(g.stepId());
      }
    }
    Running r = running.get(g.stepId());
    if (r != null) {
      r.outstanding().remove(d.id());
      if (r.outstanding().isEmpty()) {
        return finish(g.stepId());
      }
    }
    return null;
  }

  /**
   * Ends a running step (its last receiver reported, or its deadline passed): it is no longer
   * running, its deadline is cancelled; receivers still fetching keep their flows.
   *
   * @param stepId the step
   * @return its event, or null when it was not running
   */
  StepEvent finish(long stepId) {
    Running r = running.remove(stepId);
    if (r == null) {
      return null;
    }
    r.deadline().cancel();
    return r.event();
  }

  /** Cancels every running step's deadline (the coordinator stops). */
  void cancelDeadlines() {
    for (Running r : running.values()) {
      r.deadline().cancel();
    }
  }
}
