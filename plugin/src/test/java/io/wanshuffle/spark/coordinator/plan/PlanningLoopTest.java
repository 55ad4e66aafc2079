package io.wanshuffle.spark.coordinator.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The hand-over between the lock and the planner, driven by an executor the test runs by hand: at
 * most one run queued or running, a request made while a round plans is taken up by the same run,
 * snapshot and apply under the lock, plan and replies without it, and an Error escaping a round
 * does not stop later rounds.
 */
class PlanningLoopTest {
  private final Object lock = new Object();
  private final ArrayDeque<Runnable> submitted = new ArrayDeque<>();
  private final Executor byHand = submitted::add;
  private final List<String> log = new ArrayList<>();

  /** Thrown by a round to stand for an Error escaping it. */
  private static final class PlannerError extends Error {
    PlannerError() {
      super("planner error");
    }
  }

  /** What a round does at each phase, per round number (from 1). */
  private IntFunction<Integer> onSnapshot = n -> n;

  private Function<Integer, String> onPlan = in -> "plan " + in;

  private int rounds;

  private final PlanningLoop<Integer, String> loop =
      new PlanningLoop<>(
          lock,
          byHand,
          new PlanningLoop.Round<>() {
            @Override
            public Integer snapshot(long startedNanos) {
              rounds++;
              log.add("snapshot " + rounds + locked());
              return onSnapshot.apply(rounds);
            }

            @Override
            public String plan(Integer input) {
              log.add("plan " + input + locked());
              return onPlan.apply(input);
            }

            @Override
            public void apply(
                Integer input, String output, long startedNanos, List<Runnable> replies) {
              log.add("apply " + output + locked());
              replies.add(() -> log.add("reply " + output + locked()));
            }
          });

  private String locked() {
    return Thread.holdsLock(lock) ? " (locked)" : "";
  }

  /** Asks for a plan as the coordinator does: the flag under the lock, the kick without it. */
  private void requestAndKick() {
    synchronized (lock) {
      loop.request();
    }
    loop.kick();
  }

  /** Runs the one submitted run. */
  private void runSubmitted() {
    assertEquals(1, submitted.size(), "one run submitted");
    submitted.poll().run();
  }

  @Test
  void aKickWithoutARequestSubmitsNothing() {
    loop.kick();
    assertTrue(submitted.isEmpty());
  }

  @Test
  void aRoundSnapshotsAndAppliesUnderTheLockAndPlansAndRepliesWithoutIt() {
    requestAndKick();
    runSubmitted();
    assertEquals(
        List.of("snapshot 1 (locked)", "plan 1", "apply plan 1 (locked)", "reply plan 1"), log);
    assertTrue(submitted.isEmpty(), "the run ended: nothing more requested");
  }

  @Test
  void requestsBeforeTheRunStartsSubmitOneRunAndOneRound() {
    requestAndKick();
    requestAndKick();
    requestAndKick();
    runSubmitted();
    assertEquals(1, rounds, "the requests were one flag");
  }

  @Test
  void aRequestWhileARoundPlansIsTakenUpByTheSameRunNotASecondOne() {
    List<Boolean> planningSeen = new ArrayList<>();
    onPlan =
        in -> {
          if (in == 1) {
            requestAndKick(); // a registration while the planner plans
            synchronized (lock) {
              planningSeen.add(loop.isPlanning());
            }
            assertTrue(submitted.isEmpty(), "no second run while one is running");
          }
          return "plan " + in;
        };
    requestAndKick();
    runSubmitted();
    assertEquals(List.of(true), planningSeen);
    assertEquals(2, rounds, "the request made while planning was not lost");
    assertEquals(
        List.of(
            "snapshot 1 (locked)",
            "plan 1",
            "apply plan 1 (locked)",
            "reply plan 1",
            "snapshot 2 (locked)",
            "plan 2",
            "apply plan 2 (locked)",
            "reply plan 2"),
        log,
        "one round after the other");
    synchronized (lock) {
      assertFalse(loop.isPlanning());
    }
    assertTrue(submitted.isEmpty());
  }

  @Test
  void aRequestAfterTheRunEndedSubmitsANewRun() {
    requestAndKick();
    runSubmitted();
    requestAndKick();
    runSubmitted();
    assertEquals(2, rounds);
  }

  @Test
  void anErrorEscapingARoundDoesNotStopLaterRounds() {
    onPlan =
        in -> {
          if (in == 1) {
            throw new PlannerError();
          }
          return "plan " + in;
        };
    requestAndKick();
    Runnable run = submitted.poll();
    assertThrows(PlannerError.class, run::run);
    synchronized (lock) {
      assertFalse(loop.isPlanning(), "the failed round no longer counts as planning");
    }
    requestAndKick();
    runSubmitted();
    assertTrue(log.contains("apply plan 2 (locked)"), "the next request planned: " + log);
  }

  @Test
  void aRuntimeExceptionInSnapshotOrApplyEndsOnlyThatRound() {
    onSnapshot =
        n -> {
          if (n == 1) {
            throw new IllegalStateException("bad snapshot");
          }
          return n;
        };
    requestAndKick();
    runSubmitted();
    assertEquals(List.of("snapshot 1 (locked)"), log);
    requestAndKick();
    runSubmitted();
    assertTrue(log.contains("apply plan 2 (locked)"), log.toString());

    PlanningLoop<Integer, String> failingApply =
        new PlanningLoop<>(
            lock,
            byHand,
            new PlanningLoop.Round<>() {
              @Override
              public Integer snapshot(long startedNanos) {
                return ++rounds;
              }

              @Override
              public String plan(Integer input) {
                return "plan " + input;
              }

              @Override
              public void apply(
                  Integer input, String output, long startedNanos, List<Runnable> replies) {
                if (input == 3) {
                  throw new IllegalStateException("bad apply");
                }
                log.add("applied " + output);
              }
            });
    synchronized (lock) {
      failingApply.request();
    }
    failingApply.kick();
    runSubmitted();
    synchronized (lock) {
      assertFalse(failingApply.isPlanning());
      failingApply.request();
    }
    failingApply.kick();
    runSubmitted();
    assertTrue(log.contains("applied plan 4"), log.toString());
  }

  @Test
  void nothingToPlanEndsTheRoundWithoutPlanning() {
    onSnapshot = n -> null;
    requestAndKick();
    runSubmitted();
    assertEquals(List.of("snapshot 1 (locked)"), log);
  }

  @Test
  void aStoppedLoopSubmitsNothingAndAppliesNoPlanMadeBeforeTheStop() {
    onPlan =
        in -> {
          synchronized (lock) {
            loop.stop(); // the coordinator stops while the planner plans
          }
          return "plan " + in;
        };
    requestAndKick();
    runSubmitted();
    assertEquals(List.of("snapshot 1 (locked)", "plan 1"), log, "the plan is not applied");
    requestAndKick();
    assertTrue(submitted.isEmpty(), "stopped: no run");
  }

  @Test
  void aRejectedRunLetsTheNextKickTryAgain() {
    boolean[] reject = {true};
    PlanningLoop<Integer, String> l =
        new PlanningLoop<>(
            lock,
            r -> {
              if (reject[0]) {
                throw new RejectedExecutionException("planner thread shut down");
              }
              submitted.add(r);
            },
            new PlanningLoop.Round<>() {
              @Override
              public Integer snapshot(long startedNanos) {
                return ++rounds;
              }

              @Override
              public String plan(Integer input) {
                return "plan " + input;
              }

              @Override
              public void apply(
                  Integer input, String output, long startedNanos, List<Runnable> replies) {
                log.add("applied " + output);
              }
            });
    synchronized (lock) {
      l.request();
    }
    l.kick();
    assertTrue(submitted.isEmpty());
    reject[0] = false;
    l.kick();
    runSubmitted();
    assertEquals(List.of("applied plan 1"), log, "the request was kept");
  }
}
