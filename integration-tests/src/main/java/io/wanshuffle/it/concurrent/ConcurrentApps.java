package io.wanshuffle.it.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Starts several runs at the same instant and waits for all of them. */
public final class ConcurrentApps {
  private ConcurrentApps() {}

  /**
   * Runs {@code run.apply(0..n-1)} on {@code n} threads released together; with {@code n == 1} on
   * the calling thread.
   *
   * @param n how many, at least 1
   * @param run one run (e.g. a spark-submit and its measurement), given its copy's index
   * @param <T> what a run returns
   * @return the results in copy order
   * @throws RuntimeException the first copy's failure (by index) after every copy ended
   * @throws IllegalStateException if interrupted (the copies are interrupted too)
   */
  public static <T> List<T> atOnce(int n, IntFunction<T> run) {
    if (n == 1) {
      return List.of(run.apply(0));
    }
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int app = i;
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return run.apply(app);
                }));
      }
      go.countDown();
      List<T> out = new ArrayList<>();
      RuntimeException first = null;
      for (Future<T> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          if (first == null) {
            first =
                e.getCause() instanceof RuntimeException r
                    ? r
                    : new IllegalStateException(e.getCause());
          }
        }
      }
      if (first != null) {
        throw first;
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
