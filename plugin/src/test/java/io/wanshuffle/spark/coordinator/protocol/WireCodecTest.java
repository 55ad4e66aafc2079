package io.wanshuffle.spark.coordinator.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WireCodecTest {
  @Test
  void repliesRoundTripAsBytes() {
    Registered r = new Registered(42, true);
    assertEquals(r, WireCodec.decodeRegistered(WireCodec.encode(r)));
    Registered held =
        r.withFirstPoll(
            new GrantReply(GrantReply.Status.GRANT, 3, new String[] {"a1"}, new long[] {1L << 33}),
            1234);
    Registered heldBack =
        WireCodec.decodeRegistered(WireCodec.encode(held.withLinks(12_160_000, 3)));
    assertEquals(42, heldBack.demandId());
    assertEquals(1234, heldBack.heldMs());
    assertEquals(12_160_000, heldBack.baseSpeed());
    assertEquals(3, heldBack.receiverPorts());
    assertEquals(GrantReply.Status.GRANT, heldBack.firstPoll().status());
    assertEquals(3, heldBack.firstPoll().stepId());
    assertArrayEquals(new String[] {"a1"}, heldBack.firstPoll().srcHosts());
    assertArrayEquals(new long[] {1L << 33}, heldBack.firstPoll().budgets());
    for (GrantReply.Status s : GrantReply.Status.values()) {
      GrantReply g =
          new GrantReply(s, 7, new String[] {"127.0.1.1", "hôst-ü"}, new long[] {1L << 40, 3});
      GrantReply back = WireCodec.decodeGrantReply(WireCodec.encode(g));
      assertEquals(s, back.status());
      assertEquals(7, back.stepId());
      assertArrayEquals(g.srcHosts(), back.srcHosts());
      assertArrayEquals(g.budgets(), back.budgets());
    }
    GrantReply heldForPorts =
        new GrantReply(GrantReply.Status.GRANT, 8, new String[] {"a2"}, new long[] {9})
            .withHeldMs(317);
    assertEquals(317, WireCodec.decodeGrantReply(WireCodec.encode(heldForPorts)).heldMs());
    assertEquals(
        0,
        WireCodec.decodeGrantReply(WireCodec.encode(GrantReply.of(GrantReply.Status.GRANT)))
            .heldMs());
    GrantReply empty =
        WireCodec.decodeGrantReply(WireCodec.encode(GrantReply.of(GrantReply.Status.NOT_YET)));
    assertEquals(0, empty.srcHosts().length);
  }

  @Test
  void wrongOrTruncatedBytesAreRejected() {
    byte[] reg = WireCodec.encode(new Registered(1, false));
    assertThrows(IllegalArgumentException.class, () -> WireCodec.decodeGrantReply(reg));
    byte[] g =
        WireCodec.encode(
            new GrantReply(GrantReply.Status.GRANT, 1, new String[] {"a"}, new long[] {5}));
    byte[] cut = java.util.Arrays.copyOf(g, g.length - 3);
    assertThrows(IllegalArgumentException.class, () -> WireCodec.decodeGrantReply(cut));
  }
}
