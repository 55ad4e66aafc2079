package io.wanshuffle.spark.reader;

import java.util.EnumSet;
import java.util.Set;

/**
 * The phase of a gated reader's conversation with the coordinator ({@link ReaderStateMachine}),
 * owned by the task thread. At most one call is awaited at a time, and the phase says which.
 *
 * <pre>
 * UNREGISTERED --first read--> REGISTERING --registered--> WAITING (or the first grant: FETCHING)
 * WAITING --grant--> FETCHING --step reported--> REPORTED --step opened / grant--> FETCHING
 * REPORTED --no room--> HANDED_BACK --caught up--> WAITING
 * WAITING, HANDED_BACK, REPORTED (answered), REGISTERING (answered) --a sibling waits--> STANDING_ASIDE
 * FETCHING (paced step, a sibling waits) --step cut--> STANDING_ASIDE --read again--> WAITING
 * any awaiting phase --failure, UNGATED, grant.maxWait--> UNGATED
 * any --task end--> DONE;  REPORTED/WAITING --FINISHED--> DONE
 * </pre>
 */
enum ReaderPhase {
  /** The task has not read yet: no demand registered (registration waits for the first read). */
  UNREGISTERED,
  /** The registration is awaited; its answer may carry the first grant. */
  REGISTERING,
  /** A poll is awaited: the reader waits for a grant. */
  WAITING,
  /**
   * The task reads another shuffle: an idle poll (or the idle-marked report of a cut paced step) is
   * awaited, and a grant that comes goes back to the coordinator.
   */
  STANDING_ASIDE,
  /** A granted step is current: its chunks are opened as the task reads; no call is awaited. */
  FETCHING,
  /**
   * The last step was reported; the answer is awaited: a grant opened off the task thread, or an
   * answer to act on.
   */
  REPORTED,
  /** A grant was handed back (the task was behind); no call is awaited until it has caught up. */
  HANDED_BACK,
  /** The remaining cross-cluster blocks are fetched without gating; nothing more is asked. */
  UNGATED,
  /** Nothing is awaited or left to ask for (all blocks taken, or the task ended). */
  DONE;

  /**
   * @param next a phase
   * @return whether the state machine may move from this phase to {@code next}
   */
  boolean canMoveTo(ReaderPhase next) {
    return successors().contains(next);
  }

  private Set<ReaderPhase> successors() {
    return switch (this) {
      case UNREGISTERED -> EnumSet.of(REGISTERING, DONE);
      case REGISTERING -> EnumSet.of(WAITING, STANDING_ASIDE, FETCHING, REPORTED, UNGATED, DONE);
      case WAITING -> EnumSet.of(WAITING, STANDING_ASIDE, FETCHING, REPORTED, UNGATED, DONE);
      case STANDING_ASIDE -> EnumSet.of(STANDING_ASIDE, WAITING, UNGATED, DONE);
      case FETCHING -> EnumSet.of(REPORTED, STANDING_ASIDE, UNGATED, DONE);
      case REPORTED ->
          EnumSet.of(FETCHING, REPORTED, WAITING, STANDING_ASIDE, HANDED_BACK, UNGATED, DONE);
      case HANDED_BACK -> EnumSet.of(WAITING, STANDING_ASIDE, UNGATED, DONE);
      case UNGATED -> EnumSet.of(DONE);
      case DONE -> EnumSet.of(STANDING_ASIDE, UNGATED, DONE);
    };
  }

  /**
   * @return whether a call's answer is awaited in this phase
   */
  boolean awaitsAnswer() {
    return this == REGISTERING || this == WAITING || this == STANDING_ASIDE || this == REPORTED;
  }
}
