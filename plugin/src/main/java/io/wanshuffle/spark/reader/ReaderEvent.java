package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.Registered;

/**
 * What other threads tell a gated reader's task thread: the answer to one call to the coordinator,
 * posted on the reader's one queue ({@link CoordinatorConversation}) and consumed by the task
 * thread ({@link ReaderStateMachine#pump()}), as Spark's {@code ShuffleBlockFetcherIterator} turns
 * its network callbacks into {@code FetchResult}s on one queue.
 *
 * <p>Who posts what: the RPC threads that complete a call post {@link RegistrationAnswered}, {@link
 * GrantAnswered} and {@link CallFailed} for the registration and the polls; a step-opener thread
 * ({@link StepOpener}) posts the answer to a step report: {@link StepOpened}, {@link GrantAnswered}
 * (a grant it did not open, or no grant), {@link GrantHandedBack}, {@link OpenFailed} or {@link
 * CallFailed}. An event answers the call numbered {@link #call()}; the task thread drops the
 * answers to calls it no longer waits for.
 */
sealed interface ReaderEvent {
  /**
   * @return the number of the call this event answers ({@link CoordinatorConversation}), &gt; 0
   */
  long call();

  /**
   * The coordinator registered the demand.
   *
   * @param call the registration's number
   * @param reply the registration, with the answer to the first poll when gated
   */
  record RegistrationAnswered(long call, Registered reply) implements ReaderEvent {}

  /**
   * The answer to a poll, or to a step report that was not opened off the task thread (not a grant,
   * the reader stopped taking grants, nothing left to take, or the report of a cut paced step).
   *
   * @param call the poll's or report's number
   * @param reply the coordinator's answer
   */
  record GrantAnswered(long call, GrantReply reply) implements ReaderEvent {}

  /**
   * A call failed or timed out.
   *
   * @param call the call's number
   * @param cause why, unwrapped from the future's completion exception
   */
  record CallFailed(long call, Throwable cause) implements ReaderEvent {}

  /**
   * The grant that answered a step report was opened off the task thread: its blocks are taken and
   * its first chunk requested; the task thread reads it after the reported step.
   *
   * @param call the report's number
   * @param step the opened step, owned by the task thread from now on
   */
  record StepOpened(long call, StepRun step) implements ReaderEvent {}

  /**
   * Opening the grant that answered a step report failed after its blocks were taken: the task
   * thread rethrows {@code cause}, as if it had opened the step itself.
   *
   * @param call the report's number
   * @param cause the fetcher's error
   */
  record OpenFailed(long call, RuntimeException cause) implements ReaderEvent {}

  /**
   * The grant that answered a step report came while the task was too far behind ({@link
   * OpenerGate#roomFor}) and was handed back with an idle poll: the task thread polls again once it
   * has caught up.
   *
   * @param call the report's number
   */
  record GrantHandedBack(long call) implements ReaderEvent {}
}
