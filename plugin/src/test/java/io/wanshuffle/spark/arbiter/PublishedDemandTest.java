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
                "backbone.out[/A]", new LinkDemand(1_000_000, 4, 1_796_000_000_000L, 3, 2),
                "nic.in[b1]", new LinkDemand(500, 0),
                "nic.in[b2]", new LinkDemand(0, 0)));
    PublishedDemand back = PublishedDemand.decode(d.encode());
    assertEquals(2.5, back.weight());
    assertEquals(
        Map.of(
            "backbone.out[/A]",
            new LinkDemand(1_000_000, 4, 1_796_000_000_000L, 3, 2),
            "nic.in[b1]",
            new LinkDemand(500, 0)),
        back.links());
    assertEquals(1, back.links().get("nic.in[b1]").claim(), "bytes alone claim one flow");
  }

  /** A node of the first layout (no starts), from a driver of an earlier plugin, still reads. */
  @Test
  void aVersionOneNodeReadsWithUnknownStarts() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeByte(1);
      out.writeDouble(1.5);
      out.writeInt(1);
      out.writeUTF("backbone.out[/A]");
      out.writeLong(700);
      out.writeInt(2);
    }
    PublishedDemand v1 = PublishedDemand.decode(bytes.toByteArray());
    assertEquals(1.5, v1.weight());
    assertEquals(Map.of("backbone.out[/A]", new LinkDemand(700, 2, 0)), v1.links());
  }

  /** A node of the second layout (no usable flows) reads with every flow usable. */
  @Test
  void aVersionTwoNodeReadsWithEveryFlowUsable() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeByte(2);
      out.writeDouble(1);
      out.writeInt(1);
      out.writeUTF("backbone.out[/A]");
      out.writeLong(700);
      out.writeInt(2);
      out.writeLong(42);
    }
    PublishedDemand v2 = PublishedDemand.decode(bytes.toByteArray());
    assertEquals(Map.of("backbone.out[/A]", new LinkDemand(700, 2, 42, 2)), v2.links());
  }

  /** The order travels in the node; a node of the third layout (no order) reads with order 0. */
  @Test
  void theOrderReadsBackAndAVersionThreeNodeReadsWithoutOne() throws Exception {
    PublishedDemand d =
        new PublishedDemand(1, 0x1_0000_002AL, Map.of("l", new LinkDemand(7, 1, 3, 1, 1)));
    assertEquals(d, PublishedDemand.decode(d.encode()));
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      out.writeByte(3);
      out.writeDouble(1);
      out.writeInt(1);
      out.writeUTF("l");
      out.writeLong(7);
      out.writeInt(1);
      out.writeLong(3);
      out.writeInt(1);
      out.writeInt(1);
    }
    assertEquals(d.withOrder(0), PublishedDemand.decode(bytes.toByteArray()));
    assertThrows(IllegalArgumentException.class, () -> d.withOrder(-1));
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
    assertThrows(
        IllegalArgumentException.class,
        () -> new LinkDemand(1, 2, 0, 3),
        "more usable than wanted");
  }
}
