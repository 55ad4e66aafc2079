package io.wanshuffle.spark.compat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import scala.collection.Iterator;
import scala.collection.JavaConverters;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.runtime.BoxedUnit;

/** Java and Scala collections and futures converted for Scala 2.12. */
public final class ScalaCollections {
  /** The Scala binary version this jar is built for. */
  public static final String SCALA = "2.12";

  /** Runs a future's callback on the thread that completes it (Scala 2.13's {@code parasitic}). */
  private static final ExecutionContext SAME_THREAD = ExecutionContext.fromExecutor(Runnable::run);

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

  /**
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
        SAME_THREAD);
    return cf;
  }
}
