package io.wanshuffle.spark.compat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.runtime.BoxedUnit;

/** Scala futures (Spark's RPC answers) as Java futures, the same on Scala 2.12 and 2.13. */
public final class ScalaFutures {
  /** Runs a future's callback on the thread that completes it. */
  private static final ExecutionContext SAME_THREAD = ExecutionContext.fromExecutor(Runnable::run);

  private ScalaFutures() {}

  /**
   * A plain {@link CompletableFuture}, completed on the thread that completes {@code f}, so that
   * stages chained without an executor run there as with any {@code CompletableFuture}. (Scala
   * 2.13's {@code FutureConverters.asJava} returns a subclass whose non-async stages run on the
   * default async executor, which on a JVM with at most 2 cores starts a new thread for every
   * stage: one per RPC reply of the coordinator's clients.)
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
        SAME_THREAD);
    return cf;
  }
}
