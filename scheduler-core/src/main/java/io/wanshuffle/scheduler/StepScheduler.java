package io.wanshuffle.scheduler;

/**
 * An algorithm that splits a traffic matrix into KPBS steps. Implementations are stateless and
 * thread-safe; each cites its source and complexity in its Javadoc.
 *
 * <p>Contract: for every matrix and matching platform, the returned schedule passes {@link
 * Schedule#validate(TrafficMatrix, Platform)}. An all-zero matrix gives an empty schedule.
 */
public interface StepScheduler {
  /**
   * @return the algorithm's name as the CLI and the plugin configuration accept it
   */
  String name();

  /**
   * @param matrix amounts in seconds at base speed, senders x receivers
   * @param platform k, β (seconds) and δ; its shape must match the matrix
   * @return a valid schedule
   * @throws IllegalArgumentException if shapes differ or the algorithm cannot take this instance
   *     (for instance the exact solver on an instance too large for it); the message says why
   */
  Schedule schedule(TrafficMatrix matrix, Platform platform);
}
