package io.wanshuffle.spark.coordinator.demand;

import java.util.EnumSet;
import java.util.Set;

/**
 * The phase of a registered demand on the driver ({@link Demand}), the coordinator's view of the
 * reader's conversation ({@code reader.ReaderPhase} is the task's view). A demand holds a grant
 * exactly in {@link #GRANTED} and {@link #FETCHING} (and in {@link #RELEASED} until the grant is
 * ended); a parked long-poll only in {@link #WAITING} and {@link #STANDING_ASIDE}.
 *
 * <pre>
 * WAITING --step granted--> GRANTED (no poll parked) or FETCHING (handed to the parked poll)
 * GRANTED --a poll collects it--> FETCHING;  FETCHING, GRANTED --the poll expired first--> GRANTED
 * GRANTED, FETCHING --reported, deadline passed, idle poll--> WAITING
 * WAITING <--poll marked idle / not idle--> STANDING_ASIDE
 * WAITING, STANDING_ASIDE --a poll finds nothing left--> FINISHED
 * any but FINISHED --task ended, executor lost, stage done, stage ungated--> RELEASED
 * </pre>
 */
public enum DemandPhase {
  /** Takes part in planning and holds no grant; its task may have a poll parked. */
  WAITING,
  /**
   * Its task reads another shuffle (its last poll was marked idle) or missed a grant's deadline:
   * holds no grant and is not planned until a poll without the mark.
   */
  STANDING_ASIDE,
  /**
   * Holds a grant no poll has collected yet; a grant not collected by its deadline is taken back.
   */
  GRANTED,
  /** Holds a grant its task has collected and is fetching; its future bytes are still planned. */
  FETCHING,
  /** Every byte was fetched and the task was told so; out of the book. */
  FINISHED,
  /** Dropped before finishing: its task was answered "ungated" or is gone; out of the book. */
  RELEASED;

  /**
   * @param next a phase
   * @return whether a demand may move from this phase to {@code next}
   */
  boolean canMoveTo(DemandPhase next) {
    return successors().contains(next);
  }

  private Set<DemandPhase> successors() {
    return switch (this) {
      case WAITING -> EnumSet.of(WAITING, STANDING_ASIDE, GRANTED, FETCHING, FINISHED, RELEASED);
      case STANDING_ASIDE -> EnumSet.of(WAITING, STANDING_ASIDE, FINISHED, RELEASED);
      case GRANTED -> EnumSet.of(GRANTED, FETCHING, WAITING, RELEASED);
      case FETCHING -> EnumSet.of(FETCHING, GRANTED, WAITING, RELEASED);
      case FINISHED -> EnumSet.noneOf(DemandPhase.class);
      case RELEASED -> EnumSet.of(RELEASED);
    };
  }

  /**
   * @return whether the demand takes part in planning: its future bytes are planned
   */
  boolean plannable() {
    return this == WAITING || this == GRANTED || this == FETCHING;
  }

  /**
   * @return whether the demand holds a grant (it is granted or fetching)
   */
  boolean holdsGrant() {
    return this == GRANTED || this == FETCHING;
  }
}
