package io.wanshuffle.spark.config;

import io.wanshuffle.scheduler.BaseSpeed;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Numbers of flows (k, δ): an integer of ASCII digits from 1 to {@link BaseSpeed#MAX_FLOWS}. No
 * sign but {@code +}, no decimals, no digits of other scripts.
 */
final class FlowCounts {
  /** Flow counts from 1 to {@link BaseSpeed#MAX_FLOWS}. */
  static final ValueType<Integer> TYPE =
      ValueType.of(
          String.format(Locale.ROOT, "integer 1..%,d (flows)", PlatformRates.MAX_FLOWS),
          FlowCounts::flows);

  private static final Pattern ASCII_INTEGER = Pattern.compile("\\+?[0-9]+");

  private FlowCounts() {}

  private static int flows(String key, String text) {
    String t = text.trim();
    if (ASCII_INTEGER.matcher(t).matches()) {
      try {
        int n = Integer.parseInt(t);
        if (n >= 1 && n <= PlatformRates.MAX_FLOWS) {
          return n;
        }
      } catch (NumberFormatException e) {
        // more digits than an int holds: the error below
      }
    }
    throw new ConfigValueException(
        key, text, "must be an integer >= 1 and <= " + PlatformRates.MAX_FLOWS + " (flows)");
  }
}
