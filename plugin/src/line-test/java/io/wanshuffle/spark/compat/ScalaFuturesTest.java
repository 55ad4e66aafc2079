package io.wanshuffle.spark.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import scala.concurrent.Promise;

/** Scala futures converted on the Spark line's Scala version. */
class ScalaFuturesTest {
  @Test
  void futuresCompleteWithTheirResultOrFailure() throws Exception {
    Promise<Integer> ok = Promise.apply();
    var stage = ScalaFutures.asJava(ok.future()).toCompletableFuture();
    assertFalse(stage.isDone());
    ok.success(7);
    assertEquals(7, stage.get(5, TimeUnit.SECONDS));

    Promise<Integer> bad = Promise.apply();
    IllegalStateException boom = new IllegalStateException("boom");
    var failed = ScalaFutures.asJava(bad.future()).toCompletableFuture();
    bad.failure(boom);
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> failed.get(5, TimeUnit.SECONDS));
    assertSame(boom, e.getCause());
  }

  @Test
  void stagesChainedWithoutAnExecutorRunOnTheThreadThatCompletesTheFuture() throws Exception {
    // the coordinator's clients decode every RPC reply in such a stage: it must not hop to the
    // default async executor (a new thread per stage on a JVM with at most 2 cores)
    Promise<Integer> p = Promise.apply();
    CompletableFuture<Thread> ranOn =
        ScalaFutures.asJava(p.future())
            .toCompletableFuture()
            .thenApply(x -> Thread.currentThread());
    Thread completer = new Thread(() -> p.success(1), "completer");
    completer.start();
    completer.join(5_000);
    assertSame(completer, ranOn.get(5, TimeUnit.SECONDS));
  }
}
