package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FaultSpecTest {
  @Test
  void eachKindReadsItsTargetTimesAndArgument() {
    FaultSpec down = FaultSpec.parse("down:backbone.out[/A]:5:10");
    assertEquals(FaultKind.DOWN, down.kind());
    assertEquals("backbone.out[/A]", down.target());
    assertEquals(5_000, down.atMillis());
    assertEquals(10_000, down.forMillis());
    assertEquals(15_000, down.untilMillis());

    FaultSpec loss = FaultSpec.parse("loss:rack.uplink[/A/rack0]:0:20s:5%");
    assertEquals(0, loss.atMillis());
    assertEquals(20_000, loss.forMillis());
    assertEquals(5.0, loss.argument());
    assertEquals(0.25, FaultSpec.parse("loss:nic.up[b1]:1:1:0.25").argument());

    FaultSpec rate = FaultSpec.parse("rate:backbone.in[/B]:500ms:rest:25mbit");
    assertEquals(500, rate.atMillis());
    assertTrue(rate.toTheEnd());
    assertEquals(Long.MAX_VALUE, rate.untilMillis());
    assertEquals(25_000_000.0, rate.argument());

    FaultSpec delay = FaultSpec.parse("delay:backbone.out[/A]:1.5:2min:30");
    assertEquals(1_500, delay.atMillis());
    assertEquals(120_000, delay.forMillis());
    assertEquals(30.0, delay.argument(), "a bare delay is milliseconds");
    assertEquals(1_000.0, FaultSpec.parse("delay:backbone.out[/A]:0:1:1s").argument());

    FaultSpec partition = FaultSpec.parse("partition:b1:30:60");
    assertEquals(FaultKind.PARTITION, partition.kind());
    assertEquals("b1", partition.target());

    FaultSpec kill = FaultSpec.parse("kill:10.77.2.11:3");
    assertEquals(FaultKind.KILL, kill.kind());
    assertEquals(3_000, kill.atMillis());
    assertEquals(0, kill.forMillis());
    assertFalse(kill.kind().lasts());
    assertEquals(3_000, kill.untilMillis());
  }

  @Test
  void aBadSpecIsRefusedNamingItAndTheProblem() {
    assertRefused("flood:backbone.out[/A]:1:1", "unknown fault kind 'flood' (known: down, loss");
    assertRefused("down:backbone.out[/A]:1", "expected down:LINK:AT:FOR (4 fields), got 3");
    assertRefused("loss:backbone.out[/A]:1:1", "expected loss:LINK:AT:FOR:P% (5 fields), got 4");
    assertRefused("kill:b1:1:1", "expected kill:HOST:AT (3 fields), got 4");
    assertRefused("down::1:1", "no link");
    assertRefused("down:backbone.out[/A]:soon:1", "AT 'soon' is not a duration");
    assertRefused("down:backbone.out[/A]:-1:1", "AT '-1' is not a duration");
    assertRefused("down:backbone.out[/A]:1:0", "FOR must be above 0 (or rest)");
    assertRefused("down:backbone.out[/A]:1:5parsecs", "FOR '5parsecs' is not a duration");
    assertRefused("loss:backbone.out[/A]:1:1:0%", "P% must be a share above 0 and at most 100");
    assertRefused("loss:backbone.out[/A]:1:1:101", "P% must be a share above 0 and at most 100");
    assertRefused("loss:backbone.out[/A]:1:1:lots", "P% must be a share");
    assertRefused("rate:backbone.out[/A]:1:1:fast", "'fast' is not a rate");
    assertRefused("delay:backbone.out[/A]:1:1:0", "MS must be above 0 and at most 10000");
    assertRefused("delay:backbone.out[/A]:1:1:20s", "MS must be above 0 and at most 10000");
  }

  private static void assertRefused(String spec, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse(spec));
    assertTrue(e.getMessage().startsWith("--fault '" + spec + "': "), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }
}
