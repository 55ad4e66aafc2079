package io.wanshuffle.spark.compat;

import java.util.List;
import scala.collection.Iterator;
import scala.collection.JavaConverters;

/** Java and Scala collections converted for Scala 2.12. */
public final class ScalaCollections {
  /** The Scala binary version this jar is built for. */
  public static final String SCALA = "2.12";

  private ScalaCollections() {}

  /**
   * @param s a Scala sequence
   * @param <T> element type
   * @return a Java view of it
   */
  public static <T> List<T> asJava(scala.collection.Seq<T> s) {
    return JavaConverters.seqAsJavaList(s);
  }

  /**
   * @param it a Java iterator
   * @param <T> element type
   * @return a Scala view of it
   */
  public static <T> Iterator<T> asScala(java.util.Iterator<T> it) {
    return JavaConverters.asScalaIterator(it);
  }

  /**
   * @param l a Java list
   * @param <T> element type
   * @return an immutable Scala list with its elements (a copy)
   */
  public static <T> scala.collection.immutable.List<T> toList(List<T> l) {
    return JavaConverters.asScalaBuffer(l).toList();
  }
}
