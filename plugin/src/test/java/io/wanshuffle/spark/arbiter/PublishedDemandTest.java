package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PublishedDemandTest {
  @Test
  void aNodeReadsBackAsWrittenWithoutTheLinksWithoutDemand() {
    PublishedDemand d =
        new PublishedDemand(
            2.5,
            Map.of(
                "backbone.out[/A]", new LinkDemand(1_000_000, 4),
                "nic.in[b1]", new LinkDemand(500, 0),
                "nic.in[b2]", new LinkDemand(0, 0)));
    PublishedDemand back = PublishedDemand.decode(d.encode());
    assertEquals(2.5, back.weight());
    assertEquals(
        Map.of(
            "backbone.out[/A]", new LinkDemand(1_000_000, 4), "nic.in[b1]", new LinkDemand(500, 0)),
        back.links());
    assertEquals(1, back.links().get("nic.in[b1]").claim(), "bytes alone claim one flow");
  }

  @Test
  void theSameDemandIsTheSameBytesSoAnUnchangedDemandIsNotWrittenAgain() {
    Map<String, LinkDemand> a = new java.util.HashMap<>();
    Map<String, LinkDemand> b = new java.util.LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      a.put("l" + i, new LinkDemand(i, i));
    }
    for (int i = 19; i >= 0; i--) {
      b.put("l" + i, new LinkDemand(i, i));
    }
    assertEquals(
        Arrays.toString(new PublishedDemand(1, a).encode()),
        Arrays.toString(new PublishedDemand(1, b).encode()));
  }

  @Test
  void whatIsNotADemandIsRefused() {
    byte[] ok = new PublishedDemand(1, Map.of("l", new LinkDemand(1, 1))).encode();
    assertThrows(IllegalArgumentException.class, () -> PublishedDemand.decode(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> PublishedDemand.decode("hello".getBytes()));
    assertThrows(
        IllegalArgumentException.class,
        () -> PublishedDemand.decode(Arrays.copyOf(ok, ok.length - 1)),
        "truncated");
    assertThrows(
        IllegalArgumentException.class,
        () -> PublishedDemand.decode(Arrays.copyOf(ok, ok.length + 1)),
        "trailing bytes");
    byte[] zeroWeight = new PublishedDemand(1, Map.of()).encode();
    Arrays.fill(zeroWeight, 1, 9, (byte) 0);
    assertThrows(IllegalArgumentException.class, () -> PublishedDemand.decode(zeroWeight));
    assertThrows(IllegalArgumentException.class, () -> new LinkDemand(-1, 0));
  }
}
