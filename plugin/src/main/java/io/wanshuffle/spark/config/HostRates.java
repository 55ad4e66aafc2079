package io.wanshuffle.spark.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-host rates, {@code host=rate,host=rate} (rates as {@link Rates} reads them), each host listed
 * once; blank text is no host.
 */
final class HostRates {
  /** Host to rate in bytes/s, in the order listed. */
  static final ValueType<Map<String, Long>> TYPE =
      ValueType.of("`host=rate,...`", HostRates::parse);

  private HostRates() {}

  private static Map<String, Long> parse(String key, String text) {
    Map<String, Long> m = new LinkedHashMap<>();
    if (text.isBlank()) {
      return Collections.unmodifiableMap(m);
    }
    for (String entry : text.split(",", -1)) {
      String e = entry.trim();
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new ConfigValueException(
            key, text, "entry '" + e + "' is not host=rate (e.g. node1=10gbit,node2=1gbit)");
      }
      String host = e.substring(0, eq).trim();
      long rate;
      try {
        rate = Rates.parse(key, e.substring(eq + 1).trim());
      } catch (ConfigValueException bad) {
        throw new ConfigValueException(key, text, "entry '" + e + "': " + bad.expected());
      }
      if (m.put(host, rate) != null) {
        throw new ConfigValueException(key, text, "host " + host + " is listed twice");
      }
    }
    return Collections.unmodifiableMap(m);
  }
}
