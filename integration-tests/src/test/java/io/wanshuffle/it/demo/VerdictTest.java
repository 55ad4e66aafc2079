package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VerdictTest {
  @Test
  void aSpreadIsTheMedianAndTheRangeOfTheRuns() {
    RunSpread s = RunSpread.of(6.6, 6.3, 7.1, 6.5);
    assertEquals(6.55, s.median(), 1e-12, "even count: mean of the middle two");
    assertEquals(0.8, s.range(), 1e-12);
    assertEquals(4, s.runs());
    assertEquals("6.55 (6.30-7.10)", s.text("%.2f"));
    assertEquals("5.00", RunSpread.of(5.0, 5.0).text("%.2f"), "no range to show");
    assertEquals(6.3, RunSpread.of(7.1, 6.3, 6.3).median(), 1e-12);
    assertThrows(IllegalArgumentException.class, RunSpread::of);
    assertThrows(IllegalArgumentException.class, () -> RunSpread.of(1.0, Double.NaN));
  }

  @Test
  void aDifferenceCountsOnlyWhereItExceedsTheLargerRange() {
    RunSpread dflt = RunSpread.of(10.0, 10.6);
    assertEquals(Verdict.FASTER, Verdict.of(RunSpread.of(9.0, 9.2), dflt));
    assertEquals(Verdict.SLOWER, Verdict.of(RunSpread.of(11.4, 11.5), dflt));
    // 0.5 s apart, but the default's runs span 0.6 s
    assertEquals(Verdict.WITHIN, Verdict.of(RunSpread.of(9.8, 9.8), dflt));
    // the variant's own spread counts too: 1.0 s apart, its runs span 1.2 s
    assertEquals(Verdict.WITHIN, Verdict.of(RunSpread.of(8.7, 9.9), dflt));
    assertEquals(Verdict.WITHIN, Verdict.of(dflt, dflt));
    assertEquals("-14.2 % faster", Verdict.text(RunSpread.of(9.0, 9.2), RunSpread.of(10.5, 10.7)));
    assertEquals(
        "+2.0 % within the spread", Verdict.text(RunSpread.of(10.2), RunSpread.of(9.5, 10.5)));
  }
}
