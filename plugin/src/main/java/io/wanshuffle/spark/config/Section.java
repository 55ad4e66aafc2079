package io.wanshuffle.spark.config;

/**
 * The part of {@code docs/configuration.md} whose table lists a setting (experimental settings are
 * listed in a table of their own, whatever their section).
 */
public enum Section {
  /** The platform (rates, k, δ, β) and the step scheduler. */
  SCHEDULING,
  /** Step deadlines, the coordinator's timing, gating small reads, waiting and planning budgets. */
  STEPS,
  /** What the capture records and where ({@code spark.wanshuffle.capture.*}). */
  CAPTURE,
  /**
   * Several applications on one backbone: the arbiter that splits each link's window between them
   * ({@link ArbiterSettings}).
   */
  ARBITER;

  /**
   * @return the section's name in the documentation's markers, lower case
   */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
