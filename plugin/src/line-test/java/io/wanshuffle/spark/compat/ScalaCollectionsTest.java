package io.wanshuffle.spark.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScalaCollectionsTest {
  @Test
  void listsAndIteratorsConvertBothWays() {
    List<String> java = new ArrayList<>(List.of("a", "b", "c"));
    scala.collection.immutable.List<String> copy = ScalaCollections.toList(java);
    java.add("d");
    assertEquals(3, copy.size(), "a copy, not a view");
    assertEquals(List.of("a", "b", "c"), ScalaCollections.asJava(copy));
    scala.collection.Iterator<String> it = ScalaCollections.asScala(List.of("x", "y").iterator());
    assertEquals("x", it.next());
    assertEquals("y", it.next());
    assertFalse(it.hasNext());
  }
}
