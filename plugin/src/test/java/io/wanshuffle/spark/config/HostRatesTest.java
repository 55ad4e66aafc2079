package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostRatesTest {
  private static String error(String text) {
    return assertThrows(ConfigValueException.class, () -> HostRates.TYPE.parse("r", text))
        .getMessage();
  }

  @Test
  void hostsToRatesInTheOrderListed() {
    Map<String, Long> m = HostRates.TYPE.parse("r", " fast=300mbit, huge = 10gbit ");
    assertEquals(List.of("fast", "huge"), List.copyOf(m.keySet()));
    assertEquals(37_500_000L, m.get("fast"));
    assertEquals(1_250_000_000L, m.get("huge"));
    assertEquals(Map.of(), HostRates.TYPE.parse("r", " "));
  }

  @Test
  void errorsNameTheEntryAndEchoTheWholeValue() {
    assertEquals(
        "r = 'nodeA': entry 'nodeA' is not host=rate (e.g. node1=10gbit,node2=1gbit)",
        error("nodeA"));
    assertEquals(
        "r = 'a=1gbit,,': entry '' is not host=rate (e.g. node1=10gbit,node2=1gbit)",
        error("a=1gbit,,"));
    assertEquals("r = 'a=1gbit,a=2gbit': host a is listed twice", error("a=1gbit,a=2gbit"));
    assertEquals(
        "r = 'a=1gbit,b=fast': entry 'b=fast': expected a rate such as 100mbit, 1gbit, 12500000"
            + " (bytes/s) or 100m (MiB/s)",
        error("a=1gbit,b=fast"));
  }
}
