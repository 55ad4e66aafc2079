package io.wanshuffle.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How the text report prints seconds. */
class TextReportTest {
  @Test
  void secondsKeepTheirMagnitude() {
    assertEquals("0", TextReport.num(0));
    assertEquals("1.5", TextReport.num(1.5));
    assertEquals("0.000001", TextReport.num(1e-6));
    assertEquals("2.5", TextReport.num(2.5000000001));
    // a non-zero amount never prints as 0
    assertEquals("1e-09", TextReport.num(1e-9));
    assertEquals("1.23457e-12", TextReport.num(1.234567e-12));
    assertEquals("7.94223e+12", TextReport.num(7.94223e12));
    assertEquals("1e+12", TextReport.num(1e12));
    assertEquals("999999999999.5", TextReport.num(999_999_999_999.5));
  }
}
