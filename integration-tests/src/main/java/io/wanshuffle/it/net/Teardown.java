package io.wanshuffle.it.net;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * The one teardown of every testbed resource (the {@link NamespaceTestbed}'s namespaces, a Spark
 * cluster's processes): an action that runs exactly once, either when its owner closes (normally in
 * a try-with-resources block, also after a failed start), or at JVM exit if the owner is still open
 * then (normal exit, Ctrl-C, SIGTERM). The exit hooks run through Hadoop's {@link
 * ShutdownHookManager}, one at a time by priority, so a Spark cluster ({@link #SPARK_PRIORITY}) is
 * stopped before the network under it ({@link #TESTBED_PRIORITY}), and both after the Spark drivers
 * of this JVM (Spark's own hooks run at priority 40).
 */
public final class Teardown implements AutoCloseable {
  /** Exit priority of a Spark cluster's teardown. */
  public static final int SPARK_PRIORITY = 30;

  /** Exit priority of a testbed's teardown. */
  public static final int TESTBED_PRIORITY = 20;

  /** Longest an exit hook may run before Hadoop's hook manager cancels it, s. */
  private static final long EXIT_TIMEOUT_SECONDS = 120;

  private final Runnable action;
  private final Runnable hook = this::runOnce;
  private boolean done;

  private Teardown(Runnable action) {
    this.action = action;
  }

  /**
   * Registers a teardown.
   *
   * @param priority exit priority (higher runs earlier): {@link #SPARK_PRIORITY} or {@link
   *     #TESTBED_PRIORITY}
   * @param action what tears the resource down; it runs at most once
   * @return the registered teardown; {@link #close()} runs it
   */
  public static Teardown register(int priority, Runnable action) {
    Teardown t = new Teardown(action);
    ShutdownHookManager.get()
        .addShutdownHook(t.hook, priority, EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    return t;
  }

  /**
   * Runs the action unless it ran already, and deregisters the exit hook. Idempotent.
   *
   * @throws RuntimeException what the action throws (on its first run only)
   */
  @Override
  public void close() {
    try {
      runOnce();
    } finally {
      try {
        ShutdownHookManager.get().removeShutdownHook(hook);
      } catch (IllegalStateException exiting) {
        // the JVM is exiting: the hook runs (or ran) and finds the action done
      }
    }
  }

  /**
   * @return true once the action has run
   */
  public synchronized boolean done() {
    return done;
  }

  /** Runs the action on the first call; a call while it runs waits for it. */
  private synchronized void runOnce() {
    if (!done) {
      done = true;
      action.run();
    }
  }
}
