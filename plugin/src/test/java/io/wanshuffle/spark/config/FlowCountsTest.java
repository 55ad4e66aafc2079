package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlowCountsTest {
  @Test
  void integersFromOneToAMillion() {
    assertEquals(1, FlowCounts.TYPE.parse("k", "1"));
    assertEquals(7, FlowCounts.TYPE.parse("k", " +7 "));
    assertEquals(1_000_000, FlowCounts.TYPE.parse("k", "1000000"));
    assertEquals("integer 1..1,000,000 (flows)", FlowCounts.TYPE.describe());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"0", "-1", "1000001", "99999999999", "2.0", "many", "\u0663", "\uff13", ""})
  void anythingElseIsRefusedNamingKeyAndValue(String bad) {
    assertEquals(
        "k = '" + bad + "': must be an integer >= 1 and <= 1000000 (flows)",
        assertThrows(ConfigValueException.class, () -> FlowCounts.TYPE.parse("k", bad))
            .getMessage());
  }
}
