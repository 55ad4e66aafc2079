package io.wanshuffle.spark.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.SparkConf;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.util.kvstore.InMemoryStore;
import org.junit.jupiter.api.Test;

/**
 * The History Server plugin answers in both Scala shapes of {@code createListeners}, so that a
 * History Server of the other Scala version reaches its line check, and a jar of another line adds
 * no listener in either shape.
 */
class HistoryServerPluginLineCheckTest {
  private static Method[] createListeners() {
    return Arrays.stream(WanShuffleHistoryServerPlugin.class.getMethods())
        .filter(m -> m.getName().equals("createListeners"))
        .toArray(Method[]::new);
  }

  private static ElementTrackingStore store() {
    return new ElementTrackingStore(new InMemoryStore(), new SparkConf(false));
  }

  @Test
  void bothScalaShapesOfCreateListenersExist() {
    Set<String> returns =
        Arrays.stream(createListeners())
            .map(m -> m.getReturnType().getName())
            .collect(Collectors.toSet());
    assertEquals(Set.of("scala.collection.Seq", "scala.collection.immutable.Seq"), returns);
  }

  @Test
  void aJarOfAnotherLineAddsNoListenerInEitherShape() throws Exception {
    WanShuffleHistoryServerPlugin other =
        new WanShuffleHistoryServerPlugin(Optional.of("built for another line"));
    WanShuffleHistoryServerPlugin same = new WanShuffleHistoryServerPlugin(Optional.empty());
    for (Method m : createListeners()) {
      Object none = m.invoke(other, new SparkConf(false), store());
      assertSame(scala.collection.immutable.Nil$.MODULE$, none, m.toString());
      scala.collection.Seq<?> one =
          (scala.collection.Seq<?>) m.invoke(same, new SparkConf(false), store());
      assertEquals(1, one.size(), m.toString());
      assertTrue(one.head() instanceof WanShuffleStatusListener, m.toString());
    }
  }
}
