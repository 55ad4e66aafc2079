package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Seq;

/**
 * Takes the blocks of a granted step out of a reader's {@link CrossClusterBlocks} into a {@link
 * StepRun}, at block granularity:
 *
 * <ul>
 *   <li>unpaced, one chunk: the grant's budgets, but no more bytes than the fetcher requests at
 *       once ({@link BlockOpener#maxBytesInFlight()}, {@code spark.reducer.maxSizeInFlight}), so
 *       that the step's flow ends when its bytes arrive whatever the task does with them and a task
 *       that stalls in the middle of its read holds no ports. Each source host gets a share of that
 *       limit in proportion to its budget; the step's first block is taken even when it alone is
 *       larger.
 *   <li>paced at {@code spark.wanshuffle.flow.rateCap} = c bytes/s per flow: chunks of about
 *       {@value #CHUNK_MS} ms of data at c per source host, opened as the task reads them.
 * </ul>
 *
 * What is not taken stays for later grants (the report says so). A step that took blocks is held
 * ({@link OpenerGate#hold}) until the task has read it. Called on the task thread, or on a
 * step-opener thread holding the reader's gate lock while the task thread awaits the answer it
 * opens (the reader's blocks change hands as {@link CrossClusterBlocks} says).
 */
final class StepTaker {
  /** Data per source host in one chunk of a paced step, ms at the rate cap. */
  static final long CHUNK_MS = 200;

  private final StepRun.Env env;
  private final long flowRateCap;
  private final long maxStepBytes;

  /**
   * @param env the reader's parts (its blocks, hosts and gate)
   * @param flowRateCap the rate cap per flow, bytes/s; 0 or less for none
   */
  StepTaker(StepRun.Env env, long flowRateCap) {
    this.env = env;
    this.flowRateCap = flowRateCap;
    this.maxStepBytes = env.fetchers().maxBytesInFlight();
  }

  /**
   * @return most bytes one unpaced step takes: what the fetcher requests at once, bytes
   */
  long maxStepBytes() {
    return maxStepBytes;
  }

  /**
   * Takes the blocks of granted step {@code g}; the step is not opened.
   *
   * @param g a grant ({@code GRANT})
   * @param answers where the answer to the step's report goes
   * @return the step with its blocks in chunks; empty when nothing was left to take
   */
  StepRun take(GrantReply g, StepRun.Answers answers) {
    long cap = flowRateCap;
    StepRun run =
        new StepRun(
            env, g.stepId(), cap <= 0 ? 0 : cap * Math.max(1, g.srcHosts().length), answers);
    if (cap > 0) {
      takePaced(g, run, cap);
    } else {
      takeWithinFlight(g, run);
    }
    run.taken(env.blocks().remainingBytes());
    if (!run.isEmpty()) {
      env.gate().hold(run);
    }
    return run;
  }

  private void takeWithinFlight(GrantReply g, StepRun run) {
    List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out = new ArrayList<>();
    long limit = maxStepBytes;
    double budgetSum = 0;
    for (long b : g.budgets()) {
      budgetSum += Math.max(0, b);
    }
    long total = 0;
    long[] byHost = new long[env.hosts().length];
    for (int i = 0; i < g.srcHosts().length; i++) {
      long share = Long.MAX_VALUE;
      if (limit != Long.MAX_VALUE) {
        share = budgetSum <= 0 ? limit : (long) (limit * (Math.max(0, g.budgets()[i]) / budgetSum));
        share = Math.max(0, Math.min(share, limit - total));
      }
      long b =
          env.blocks().take(g.srcHosts()[i], Math.max(1, g.budgets()[i]), share, total == 0, out);
      total += b;
      int idx = indexOf(g.srcHosts()[i]);
      if (idx >= 0) {
        run.addFetched(idx, b);
        byHost[idx] += b;
      }
    }
    if (!out.isEmpty()) {
      run.addChunk(out, total, byHost);
    }
  }

  private void takePaced(GrantReply g, StepRun run, long cap) {
    long chunk = Math.max(1, cap * CHUNK_MS / 1000);
    long[] taken = new long[g.srcHosts().length];
    boolean more = true;
    while (more) {
      more = false;
      List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> out = new ArrayList<>();
      long chunkBytes = 0;
      long[] byHost = new long[env.hosts().length];
      for (int i = 0; i < g.srcHosts().length; i++) {
        long left = g.budgets()[i] - taken[i];
        if (left <= 0 && taken[i] > 0) {
          continue;
        }
        long b = env.blocks().take(g.srcHosts()[i], Math.min(chunk, Math.max(1, left)), out);
        taken[i] += b;
        chunkBytes += b;
        int idx = indexOf(g.srcHosts()[i]);
        if (idx >= 0) {
          run.addFetched(idx, b);
          byHost[idx] += b;
        }
        if (b > 0 && taken[i] < g.budgets()[i]) {
          more = true;
        }
      }
      if (!out.isEmpty()) {
        run.addChunk(out, chunkBytes, byHost);
      }
    }
  }

  private int indexOf(String host) {
    String[] hosts = env.hosts();
    for (int i = 0; i < hosts.length; i++) {
      if (hosts[i].equals(host)) {
        return i;
      }
    }
    return -1;
  }
}
