package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SharedConnectionsTest {
  @Test
  void aFlowHasTheUnarrivedBytesOfEarlierFlowsFromItsHostAheadOfIt() {
    SharedConnections c = new SharedConnections();
    SharedConnections.Flow a = c.open("a1", 300, 0);
    SharedConnections.Flow b = c.open("a1", 200, 4);
    SharedConnections.Flow other = c.open("a2", 500, 5);
    assertEquals(0, c.bytesAhead(a));
    assertEquals(300, c.bytesAhead(b));
    assertEquals(0, c.bytesAhead(other), "another host's connection is not shared");
    assertEquals(0, c.clearedMs(a), "nothing ahead: cleared at its request");
    assertEquals(-1, c.clearedMs(b));
    assertEquals(5, c.clearedMs(other));

    c.arrived(a, 100, 50);
    assertEquals(200, c.bytesAhead(b));
    assertEquals(-1, c.clearedMs(b));
    c.arrived(a, 200, 300);
    assertEquals(0, c.bytesAhead(b), "a's bytes all arrived");
    assertEquals(300, c.clearedMs(b), "b is first on the connection from then on");
    assertEquals(2, c.open());
  }

  @Test
  void closingAFlowThatDidNotArriveReleasesTheFlowsBehindIt() {
    SharedConnections c = new SharedConnections();
    SharedConnections.Flow a = c.open("a1", 300, 0);
    SharedConnections.Flow b = c.open("a1", 200, 1);
    SharedConnections.Flow d = c.open("a1", 100, 2);
    c.close(b, 10); // the middle one: d still waits for a
    assertEquals(300, c.bytesAhead(d));
    assertEquals(-1, c.clearedMs(d));
    c.close(a, 20);
    c.close(a, 30); // idempotent
    assertEquals(0, c.bytesAhead(d));
    assertEquals(20, c.clearedMs(d));
    c.arrived(b, 50, 40); // closed: ignored
    c.close(d, 50);
    assertEquals(0, c.open());
    SharedConnections.Flow e = c.open("a1", 10, 60);
    assertEquals(60, c.clearedMs(e), "a fresh connection queue");
  }
}
