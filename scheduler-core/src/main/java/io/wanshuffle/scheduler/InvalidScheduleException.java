package io.wanshuffle.scheduler;

/** Thrown by {@link Schedule#validate} when a schedule breaks a KPBS rule; the message names it. */
public final class InvalidScheduleException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which rule, step and transfer
   */
  public InvalidScheduleException(String message) {
    super(message);
  }
}
