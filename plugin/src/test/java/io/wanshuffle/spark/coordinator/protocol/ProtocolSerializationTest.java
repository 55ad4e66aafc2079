package io.wanshuffle.spark.coordinator.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.JavaSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import scala.reflect.ClassTag$;

/**
 * Messages cross the network Java-serialised by Spark's RPC: they must round-trip through Spark's
 * {@link JavaSerializer} and stay small.
 */
class ProtocolSerializationTest {
  private final SerializerInstance ser = new JavaSerializer(new SparkConf(false)).newInstance();

  @SuppressWarnings("unchecked")
  private <T> T roundTrip(T m) {
    return (T)
        ser.deserialize(
            ser.serialize(m, ClassTag$.MODULE$.apply(Object.class)),
            ClassTag$.MODULE$.apply(Object.class));
  }

  private static int size(Object m) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(b)) {
      o.writeObject(m);
    }
    return b.size();
  }

  @Test
  void everyMessageRoundTrips() throws IOException {
    RegisterDemand d =
        new RegisterDemand(
            3,
            1,
            7,
            42L,
            "exec-1",
            "127.0.2.1",
            new String[] {"127.0.1.1", "127.0.1.2"},
            new long[] {1L << 33, 5});
    RegisterDemand d2 = roundTrip(d);
    assertEquals(42L, d2.taskAttemptId());
    assertArrayEquals(d.srcHosts(), d2.srcHosts());
    assertArrayEquals(d.bytes(), d2.bytes());
    assertEquals(new Registered(9, true), roundTrip(new Registered(9, true)));
    AwaitGrant a =
        roundTrip(new AwaitGrant(9, 4, new String[] {"h"}, new long[] {3}, new long[] {0}, 10, 20));
    assertEquals(4, a.doneStepId());
    assertArrayEquals(new long[] {3}, a.fetchedBytes());
    GrantReply g =
        roundTrip(new GrantReply(GrantReply.Status.GRANT, 4, new String[] {"h"}, new long[] {100}));
    assertEquals(GrantReply.Status.GRANT, g.status());
    assertArrayEquals(new long[] {100}, g.budgets());
    assertEquals(new ReleaseDemand(9, "task-end"), roundTrip(new ReleaseDemand(9, "task-end")));
    assertEquals(
        new NoCrossClusterDemand(3, 1, 42L, "127.0.2.1"),
        roundTrip(new NoCrossClusterDemand(3, 1, 42L, "127.0.2.1")));
    UngatedReport u = roundTrip(new UngatedReport(0, d, 1, 2));
    assertArrayEquals(d.bytes(), u.demand().bytes());
    assertTrue(size(d) < 1024, "registration of a 2-host demand is " + size(d) + " bytes");
    assertTrue(size(g) < 1024, "grant is " + size(g) + " bytes");
  }

  @Test
  void invalidDemandIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RegisterDemand(1, 0, 1, 1, "e", "b", new String[] {"a"}, new long[] {0}));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RegisterDemand(1, 0, 1, 1, "e", "b", new String[] {"a", "c"}, new long[] {1}));
  }
}
