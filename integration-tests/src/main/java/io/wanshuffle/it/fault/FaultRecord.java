package io.wanshuffle.it.fault;

/**
 * What happened to one fault in one run, for the reports ({@code report.json} of {@code run-app},
 * the fault files of {@code e2e-bench}). Times are counted from the start of the run's first reduce
 * stage ({@link FaultRun#reduceStageStart()}) in seconds, and given as wall-clock time (ISO-8601,
 * UTC) and epoch ms. A fault counts as applied (undone) when the command that applies (undoes) it
 * has returned.
 *
 * @param spec the spec as given
 * @param kind {@code down}, {@code loss}, {@code rate}, {@code delay}, {@code partition} or {@code
 *     kill}
 * @param target the link (a NIC by address) or host it acts on
 * @param atSeconds when it was to be applied, s after the reduce stage's start
 * @param forSeconds how long it was to last, s; null for {@code rest} (to the end of the run) and
 *     for a kill
 * @param applied whether it was applied
 * @param appliedAtSeconds when it was applied, s after the reduce stage's start (null if it was
 *     not)
 * @param appliedAt when it was applied, wall clock (null if it was not)
 * @param appliedAtEpochMs when it was applied, ms since the epoch (null if it was not)
 * @param undoneAtSeconds when it was undone, s after the reduce stage's start (null if it was not
 *     applied, or is a kill)
 * @param undoneAt when it was undone, wall clock (null as {@code undoneAtSeconds})
 * @param undoneAtEpochMs when it was undone, ms since the epoch (null as {@code undoneAtSeconds})
 * @param undoOk whether undoing it succeeded (null when there was nothing to undo)
 * @param detail what was done (the nftables table, the tbf's old and new rate, the killed
 *     processes), or why it was not applied
 * @param error why applying or undoing it failed, or null
 */
public record FaultRecord(
    String spec,
    String kind,
    String target,
    double atSeconds,
    Double forSeconds,
    boolean applied,
    Double appliedAtSeconds,
    String appliedAt,
    Long appliedAtEpochMs,
    Double undoneAtSeconds,
    String undoneAt,
    Long undoneAtEpochMs,
    Boolean undoOk,
    String detail,
    String error) {

  /**
   * @return true when applying or undoing the fault failed
   */
  public boolean failed() {
    return error != null || Boolean.FALSE.equals(undoOk);
  }
}
