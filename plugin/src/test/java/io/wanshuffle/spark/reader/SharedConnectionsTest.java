package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SharedConnectionsTest {
  @Test
  void aFlowSharesItsConnectionWithTheUnarrivedBytesOfTheOtherFlowsFromItsHost() {
    SharedConnections c = new SharedConnections();
    SharedConnections.Flow a = c.open("a1", 300, 0);
    assertEquals(0, c.clearedMs(a), "alone at its request");
    SharedConnections.Flow b = c.open("a1", 200, 4);
    SharedConnections.Flow other = c.open("a2", 500, 5);
    assertEquals(200, c.bytesSharing(a), "whichever was requested first");
    assertEquals(300, c.bytesSharing(b));
    assertEquals(0, c.bytesSharing(other), "another host's connection is not shared");
    assertEquals(-1, c.clearedMs(a), "no longer alone");
    assertEquals(-1, c.clearedMs(b));
    assertEquals(5, c.clearedMs(other));

    c.arrived(a, 100, 50);
    assertEquals(200, c.bytesSharing(b));
    c.arrived(b, 200, 200); // b's bytes came first
    assertEquals(0, c.bytesSharing(a));
    assertEquals(200, c.clearedMs(a), "a alone on the connection from then on");
    assertEquals(2, c.open());
    c.arrived(a, 200, 300);
    assertEquals(1, c.open());
  }

  /**
   * The others' expected end: one after the other in opening order, each from one latency after its
   * request.
   */
  @Test
  void othersEndIsTheirBytesOneAfterTheOtherFromOneLatencyAfterTheirRequests() {
    SharedConnections c = new SharedConnections();
    SharedConnections.Flow a = c.open("a1", 300, 0);
    assertEquals(-1, c.othersEndMs(a, 1.0, 10), "alone");
    SharedConnections.Flow b = c.open("a1", 200, 50);
    SharedConnections.Flow d = c.open("a1", 100, 400);
    assertEquals(510, c.othersEndMs(b, 1.0, 10), "a from 10 to 310, then d from 410 to 510");
    assertEquals(310 + 200, c.othersEndMs(d, 1.0, 10), "a then b");
    assertEquals(255, c.othersEndMs(d, 2.0, 5), "at 2 B/ms: a from 5 to 155, then b to 255");
    c.close(a, 320);
    assertEquals(410 + 100, c.othersEndMs(b, 1.0, 10));
    c.close(b, 330);
    assertEquals(-1, c.othersEndMs(d, 1.0, 10), "alone again");
    assertEquals(-1, c.othersEndMs(a, 1.0, 10), "a closed flow");
  }

  @Test
  void closingAFlowThatDidNotArriveLeavesTheOthersWithoutItsBytes() {
    SharedConnections c = new SharedConnections();
    SharedConnections.Flow a = c.open("a1", 300, 0);
    SharedConnections.Flow b = c.open("a1", 200, 1);
    SharedConnections.Flow d = c.open("a1", 100, 2);
    c.close(b, 10);
    assertEquals(300, c.bytesSharing(d));
    assertEquals(-1, c.clearedMs(d), "a still shares it");
    c.close(a, 20);
    c.close(a, 30); // idempotent
    assertEquals(0, c.bytesSharing(d));
    assertEquals(20, c.clearedMs(d));
    c.arrived(b, 50, 40); // closed: ignored
    c.close(d, 50);
    assertEquals(0, c.open());
    SharedConnections.Flow e = c.open("a1", 10, 60);
    assertEquals(60, c.clearedMs(e), "a fresh connection");
  }
}
