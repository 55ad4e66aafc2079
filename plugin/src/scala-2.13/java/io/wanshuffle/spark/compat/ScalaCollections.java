package io.wanshuffle.spark.compat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import scala.collection.Iterator;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/** Java and Scala collections and futures converted for Scala 2.13. */
public final class ScalaCollections {
  /** The Scala binary version this jar is built for. */
  public static final String SCALA = "2.13";

  private ScalaCollections() {}

  /**
   * @param s a Scala sequence
   * @param <T> element type
   * @return a Java view of it
   */
  public static <T> List<T> asJava(scala.collection.Seq<T> s) {
    return CollectionConverters.asJava(s);
  }

  /**
   * @param it a Java iterator
   * @param <T> element type
   * @return a Scala view of it
   */
  public static <T> Iterator<T> asScala(java.util.Iterator<T> it) {
    return CollectionConverters.asScala(it);
  }

  /**
   * @param l a Java list
   * @param <T> element type
   * @return an immutable Scala list with its elements (a copy)
   */
  public static <T> scala.collection.immutable.List<T> toList(List<T> l) {
    return CollectionConverters.asScala(l).toList();
  }

  /**
   * A plain {@link CompletableFuture}, completed on the thread that completes {@code f}, so that
   * stages chained without an executor run there as with any {@code CompletableFuture}. (Scala's
   * {@code FutureConverters.asJava} returns a subclass whose non-async stages run on the default
   * async executor, which on a JVM with at most 2 cores starts a new thread for every stage: one
   * per RPC reply of the coordinator's clients.)
   *
   * @param f a Scala future
   * @param <T> result type
   * @return a Java stage completed with its result or failure
   */
  public static <T> CompletionStage<T> asJava(Future<T> f) {
    CompletableFuture<T> cf = new CompletableFuture<>();
    f.onComplete(
        t -> {
          if (t.isSuccess()) {
            cf.complete(t.get());
          } else {
            cf.completeExceptionally(t.failed().get());
          }
          return BoxedUnit.UNIT;
        },
        ExecutionContext.parasitic$.MODULE$);
    return cf;
  }
}
