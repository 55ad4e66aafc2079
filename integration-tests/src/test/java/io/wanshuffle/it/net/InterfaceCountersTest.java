package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InterfaceCountersTest {
  /** /proc/net/dev as Linux 6 prints it (a 20-digit counter runs into the colon). */
  static final String NET_DEV =
      """
      Inter-|   Receive                                                |  Transmit
       face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
          lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0
         bbA: 1208 16 0 0 0 0 0 0 987654321 6543 0 0 0 0 0 0
       bbA2:18446744073709551615 1 0 0 0 0 0 0 5 1 0 0 0 0 0 0
      """;

  @Test
  void readsTransmitAndReceiveBytesOfTheNamedInterfaceOnly() {
    assertArrayEquals(new long[] {987654321L, 1208L}, InterfaceCounters.parse(NET_DEV, "bbA"));
    // an unsigned 64-bit counter past Long.MAX_VALUE keeps its bits (differences of two readings
    // stay right)
    assertArrayEquals(new long[] {5L, -1L}, InterfaceCounters.parse(NET_DEV, "bbA2"));
    assertNull(
        InterfaceCounters.parse(NET_DEV, "bbB"), "an interface of another namespace is not listed");
    assertNull(InterfaceCounters.parse(NET_DEV, "bb"), "a prefix of a name is not the interface");
  }

  @Test
  void aTruncatedLineIsAnErrorNamingTheInterface() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> InterfaceCounters.parse("  bbA: 1 2 3\n", "bbA"));
    assertTrue(e.getMessage().contains("bbA"), e.getMessage());
  }
}
