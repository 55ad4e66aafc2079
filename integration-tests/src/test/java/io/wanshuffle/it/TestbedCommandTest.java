package io.wanshuffle.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TestbedCommandTest {
  @Test
  void aProbeDurationOutOfRangeOrAnUnknownActionIsAUsageErrorBeforeTheTestbedIsBuilt() {
    String[][] cases = {
      {"probe", "--seconds", "0", "option '--seconds': '0' must be more than 0"},
      {"probe", "--seconds", "-1", "option '--seconds': '-1' is negative"},
      {"probe", "--seconds", "3601", "--seconds: the probe's duration must be 1..3600 s, got 3601"},
      {"probe", "--seconds", "2h", "got 7200"},
      {"sideways", "--seconds", "8", "unknown action 'sideways'"},
    };
    for (String[] c : cases) {
      StringWriter err = new StringWriter();
      CommandLine cl = new CommandLine(new TestbedCommand()).setErr(new PrintWriter(err, true));
      assertEquals(2, cl.execute(c[0], c[1], c[2]), String.join(" ", c) + ": " + err);
      assertTrue(err.toString().contains(c[3]), String.join(" ", c) + ": " + err);
    }
  }
}
