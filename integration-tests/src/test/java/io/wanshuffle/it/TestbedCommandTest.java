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
      {"probe", "--seconds", "0", "--seconds: the probe's duration must be 1..3600 s, got 0"},
      {"probe", "--seconds", "-1", "got -1"},
      {"probe", "--seconds", "3601", "got 3601"},
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
