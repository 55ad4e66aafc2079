package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.ReleaseDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One gated reader's conversation with the coordinator: its calls ({@link DemandClient}) and the
 * one queue on which their answers reach the task thread as {@link ReaderEvent}s.
 *
 * <p>Every call that expects an answer gets a number, from 1 on. The task thread awaits at most one
 * answer at a time ({@link #awaited()}, 0 for none): the registration's, a poll's, or the report's
 * of the step it read last. {@link #takeAnswer()} and {@link #awaitAnswer(long)} drop the answers
 * to other calls (a poll replaced by an idle one, a report whose reader was read again): the last
 * call's answer is the coordinator's word. The answers to steps reported off the task thread are
 * posted in report order ({@link StepOpener}), so the answer to a step that was opened ahead never
 * reaches the queue before the answer that opened that step.
 *
 * <p>Threads: {@link #register}, {@link #poll}, {@link #takeAnswer}, {@link #awaitAnswer}, {@link
 * #expect}, {@link #drainOpened} on the task thread; {@link #report}, {@link #handBack}, {@link
 * #post}, {@link #arrived} from any thread. The queue is thread-safe; {@code demandId} is volatile
 * (reports are built off the task thread); the awaited call and the answer taken from the queue are
 * the task thread's own.
 */
final class CoordinatorConversation {
  /** A step report sent: its number and the coordinator's answer. */
  record ReportCall(long call, CompletableFuture<GrantReply> reply) {}

  private final DemandClient client;
  private final RegisterDemand demand;
  private final LinkedBlockingQueue<ReaderEvent> events = new LinkedBlockingQueue<>();
  private final AtomicLong calls = new AtomicLong();

  /** The demand's id once the registration was handled, 0 before. Written by the task thread. */
  private volatile long demandId;

  /** The call whose answer the task thread awaits, 0 for none. Task thread only. */
  private long awaited;

  /** The awaited call's answer, taken from the queue and not handled yet. Task thread only. */
  private ReaderEvent answer;

  /** The registration, once sent. Task thread only. */
  private CompletableFuture<Registered> registration;

  /**
   * @param client the coordinator's client
   * @param demand the reader's demand (its registration and its ungated report)
   */
  CoordinatorConversation(DemandClient client, RegisterDemand demand) {
    this.client = client;
    this.demand = demand;
  }

  /**
   * Registers the demand and awaits the answer.
   *
   * @param roundTrips told the registration's round trip less the coordinator's hold, ms; null for
   *     none
   */
  void register(HandoverPredictor roundTrips) {
    long call = calls.incrementAndGet();
    awaited = call;
    answer = null;
    long sent = System.nanoTime();
    registration = client.register(demand);
    registration.whenComplete(
        (r, t) -> {
          if (t != null) {
            events.add(new ReaderEvent.CallFailed(call, unwrap(t)));
            return;
          }
          if (roundTrips != null) {
            roundTrips.coordinatorRoundTrip(
                Math.max(0, (System.nanoTime() - sent) / 1_000_000 - r.heldMs()));
          }
          events.add(new ReaderEvent.RegistrationAnswered(call, r));
        });
  }

  /**
   * @param id the registered demand's id; reports and releases carry it from now on
   */
  void registered(long id) {
    demandId = id;
  }

  /**
   * @return the demand's id, 0 before the registration was handled
   */
  long demandId() {
    return demandId;
  }

  /**
   * Asks for the next grant (a long-poll) and awaits the answer, which replaces any other awaited.
   *
   * @param idle whether the task reads another shuffle now (a grant that comes goes back)
   */
  void poll(boolean idle) {
    long call = calls.incrementAndGet();
    awaited = call;
    answer = null;
    client
        .await(idle ? AwaitGrant.idle(demandId) : AwaitGrant.poll(demandId))
        .whenComplete((g, t) -> events.add(answerOf(call, g, t)));
  }

  /**
   * Sends a step's report (from any thread). Its answer goes where the caller routes it ({@link
   * StepOpener}); the task thread awaits it with {@link #expect}.
   *
   * @param report the step's report
   * @return the report's number and the coordinator's answer
   */
  ReportCall report(AwaitGrant report) {
    long call = calls.incrementAndGet();
    return new ReportCall(call, client.await(report));
  }

  /**
   * The task thread awaits the answer to a step report sent earlier (on any thread).
   *
   * @param call the report's number
   */
  void expect(long call) {
    awaited = call;
    answer = null;
  }

  /**
   * Hands a grant back with an idle poll whose answer nobody awaits (step-opener thread): the
   * coordinator takes the grant back and plans this demand again at its next normal poll.
   */
  void handBack() {
    client.await(AwaitGrant.idle(demandId));
  }

  /**
   * @param e an answer to post on the queue (any thread)
   */
  void post(ReaderEvent e) {
    events.add(e);
  }

  /**
   * @return the call whose answer the task thread awaits, 0 for none
   */
  long awaited() {
    return awaited;
  }

  /**
   * @return the awaited answer without taking it, null while it has not come
   */
  ReaderEvent peekAnswer() {
    fill();
    return answer;
  }

  /**
   * Takes the awaited answer if it has come; afterwards no answer is awaited.
   *
   * @return the answer, or null (none awaited, or not come yet)
   */
  ReaderEvent takeAnswer() {
    ReaderEvent e = peekAnswer();
    if (e != null) {
      answer = null;
      awaited = 0;
    }
    return e;
  }

  /**
   * Waits up to {@code ms} for the awaited answer (it is then taken by {@link #takeAnswer()}).
   *
   * @param ms longest wait, ms
   * @return whether it came
   * @throws InterruptedException if the task thread is interrupted
   */
  boolean awaitAnswer(long ms) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (awaited != 0 && peekAnswer() == null) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      ReaderEvent e = events.poll(left, TimeUnit.NANOSECONDS);
      if (e != null) {
        offer(e);
      }
    }
    return answer != null;
  }

  /** Moves queued events to the answer until the awaited one is found; drops the others. */
  private void fill() {
    ReaderEvent e;
    while (answer == null && awaited != 0 && (e = events.poll()) != null) {
      offer(e);
    }
  }

  private void offer(ReaderEvent e) {
    if (e.call() == awaited) {
      answer = e;
    } else if (e instanceof ReaderEvent.StepOpened s) {
      // a step opened ahead is answered in report order and never replaced: its blocks are taken
      throw new IllegalStateException(
          "wan-shuffle: step "
              + s.step().stepId()
              + " opened for call "
              + e.call()
              + " while call "
              + awaited
              + " is awaited");
    }
  }

  /**
   * Ends the conversation's queue (the reader goes ungated or its task ended): nothing is awaited
   * any more. Call with the {@link OpenerGate} closed, under its monitor, so no step is opened
   * after.
   *
   * @return the steps opened ahead that the task thread had not taken up, in report order
   */
  List<StepRun> drainOpened() {
    List<StepRun> opened = new ArrayList<>();
    if (answer instanceof ReaderEvent.StepOpened s) {
      opened.add(s.step());
    }
    ReaderEvent e;
    while ((e = events.poll()) != null) {
      if (e instanceof ReaderEvent.StepOpened s) {
        opened.add(s.step());
      }
    }
    answer = null;
    awaited = 0;
    return opened;
  }

  /**
   * Releases the demand (one-way).
   *
   * @param reason for the coordinator's log and the capture
   */
  void release(String reason) {
    client.release(new ReleaseDemand(demandId, reason));
  }

  /**
   * Releases the demand once the registration sent earlier is answered, if it opened one (the task
   * ended before it knew its demand's id).
   *
   * @param reason for the coordinator's log and the capture
   */
  void releaseWhenRegistered(String reason) {
    registration.thenAccept(
        r -> {
          if (r.opensGatedDemand()) {
            client.release(new ReleaseDemand(r.demandId(), reason));
          }
        });
  }

  /**
   * @param report bytes fetched without gating (one-way, for the capture)
   */
  void ungatedRealised(UngatedReport report) {
    client.report(report);
  }

  /**
   * @param arrival the arrival of a step reported ahead of its end (one-way, any thread)
   */
  void arrived(FlowArrived arrival) {
    client.arrived(arrival);
  }

  /**
   * @return {@code call}'s answer as an event: the reply, or the failure
   */
  static ReaderEvent answerOf(long call, GrantReply g, Throwable t) {
    return t == null
        ? new ReaderEvent.GrantAnswered(call, g)
        : new ReaderEvent.CallFailed(call, unwrap(t));
  }

  /**
   * @return the cause of a future's failure: unwrapped from its {@link CompletionException}
   */
  static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
