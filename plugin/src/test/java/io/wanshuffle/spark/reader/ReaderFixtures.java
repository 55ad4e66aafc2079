package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.ReleaseDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.spark.SparkConf;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockManagerId$;
import org.apache.spark.storage.ShuffleBlockId;
import scala.Option;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** Blocks, fetchers and a scripted coordinator client for the reader's unit tests. */
final class ReaderFixtures {
  private ReaderFixtures() {}

  /** Hosts a* are cluster A, b* cluster B, others outside the topology. */
  static final ClusterTopology TOPOLOGY =
      new ClusterTopology(
          new DNSToSwitchMapping() {
            @Override
            public List<String> resolve(List<String> names) {
              List<String> r = new ArrayList<>();
              for (String n : names) {
                r.add(n.startsWith("a") ? "/A/r1" : n.startsWith("b") ? "/B/r1" : "/default-rack");
              }
              return r;
            }

            @Override
            public void reloadCachedMappings() {}

            @Override
            public void reloadCachedMappings(List<String> names) {}
          });

  /**
   * @param kv configuration keys and values
   * @return a gated configuration with those settings
   */
  static WanShuffleConf conf(String... kv) {
    SparkConf c = new SparkConf(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return WanShuffleConf.from(c);
  }

  /** Blocks for a reducer: {host, bytes} pairs, one block each (map index = position). */
  static CrossClusterBlocks blocks(String reducerHost, Object... hostBytes) {
    Map<String, List<Tuple3<BlockId, Object, Object>>> by = new LinkedHashMap<>();
    for (int i = 0; i < hostBytes.length; i += 2) {
      by.computeIfAbsent((String) hostBytes[i], h -> new ArrayList<>())
          .add(
              new Tuple3<>(
                  new ShuffleBlockId(7, i, 0), ((Number) hostBytes[i + 1]).longValue(), i));
    }
    List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> list = new ArrayList<>();
    for (Map.Entry<String, List<Tuple3<BlockId, Object, Object>>> e : by.entrySet()) {
      BlockManagerId id =
          BlockManagerId$.MODULE$.apply("exec-" + e.getKey(), e.getKey(), 7337, Option.empty());
      list.add(new Tuple2<>(id, CollectionConverters.asScala(e.getValue()).toSeq()));
    }
    return new CrossClusterBlocks(
        CollectionConverters.asScala(list.iterator()), reducerHost, TOPOLOGY);
  }

  /**
   * @return task 42's demand on b1 for {@code b}
   */
  static RegisterDemand demandOf(CrossClusterBlocks b) {
    return new RegisterDemand(3, 0, 7, 42, "exec-b1", "b1", b.hosts(), b.registeredBytes());
  }

  /**
   * @return a grant of step {@code stepId}: {host, budget} pairs
   */
  static GrantReply grant(long stepId, Object... hostBudgets) {
    String[] hosts = new String[hostBudgets.length / 2];
    long[] budgets = new long[hosts.length];
    for (int i = 0; i < hosts.length; i++) {
      hosts[i] = (String) hostBudgets[2 * i];
      budgets[i] = ((Number) hostBudgets[2 * i + 1]).longValue();
    }
    return new GrantReply(GrantReply.Status.GRANT, stepId, hosts, budgets);
  }

  /** A fetcher that logs each opened fetch and keeps each step's arrival and hand-over signals. */
  static final class RecordingOpener implements BlockOpener {
    /** Every opened fetch: the host of each requested block, space-separated. */
    final List<String> opened = new CopyOnWriteArrayList<>();

    /** Every step's arrival callback, in opening order. */
    final List<Runnable> arrivals = new CopyOnWriteArrayList<>();

    /** Every step's hand-over signal (null when not predicted), in opening order. */
    final List<ArrivalTrackingClient.AheadSignal> aheads = new CopyOnWriteArrayList<>();

    /** Every step's progress, in opening order (a test tells it what the network did). */
    final List<FlowProgress> progresses = new CopyOnWriteArrayList<>();

    private final long maxInFlight;

    /** A failure for the next step opened, if set. */
    volatile RuntimeException failNextStep;

    RecordingOpener() {
      this(Long.MAX_VALUE);
    }

    RecordingOpener(long maxInFlight) {
      this.maxInFlight = maxInFlight;
    }

    @Override
    public Iterator<Tuple2<BlockId, InputStream>> open(
        List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks) {
      List<Tuple2<BlockId, InputStream>> out = new ArrayList<>();
      StringBuilder log = new StringBuilder();
      for (Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>> t : blocks) {
        for (Tuple3<BlockId, Object, Object> b : CollectionConverters.asJava(t._2())) {
          out.add(new Tuple2<>(b._1(), new ByteArrayInputStream(new byte[0])));
          log.append(t._1().host()).append(' ');
        }
      }
      opened.add(log.toString().trim());
      return CollectionConverters.asScala(out.iterator());
    }

    @Override
    public Iterator<Tuple2<BlockId, InputStream>> openStep(
        List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
        Runnable onArrived,
        ArrivalTrackingClient.AheadSignal ahead,
        FlowProgress progress) {
      RuntimeException fail = failNextStep;
      if (fail != null) {
        failNextStep = null;
        throw fail;
      }
      Iterator<Tuple2<BlockId, InputStream>> it = open(blocks);
      arrivals.add(onArrived);
      aheads.add(ahead);
      progresses.add(progress);
      return it;
    }

    @Override
    public long maxBytesInFlight() {
      return maxInFlight;
    }
  }

  /** A coordinator client whose answers the test gives: every call's future is kept. */
  static final class ScriptedClient implements DemandClient {
    final List<CompletableFuture<Registered>> registrations = new CopyOnWriteArrayList<>();
    final List<AwaitGrant> polls = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<GrantReply>> replies = new CopyOnWriteArrayList<>();
    final List<ReleaseDemand> released = new CopyOnWriteArrayList<>();
    final List<UngatedReport> reports = new CopyOnWriteArrayList<>();
    final List<FlowArrived> arrivals = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<Registered> register(RegisterDemand m) {
      CompletableFuture<Registered> f = new CompletableFuture<>();
      registrations.add(f);
      return f;
    }

    @Override
    public CompletableFuture<GrantReply> await(AwaitGrant m) {
      CompletableFuture<GrantReply> f = new CompletableFuture<>();
      polls.add(m);
      replies.add(f);
      return f;
    }

    @Override
    public void release(ReleaseDemand m) {
      released.add(m);
    }

    @Override
    public void report(UngatedReport m) {
      reports.add(m);
    }

    @Override
    public void arrived(FlowArrived m) {
      arrivals.add(m);
    }

    /**
     * @return the last poll or report sent
     */
    AwaitGrant lastPoll() {
      return polls.get(polls.size() - 1);
    }

    /** Answers the last poll or report. */
    void answer(GrantReply g) {
      replies.get(replies.size() - 1).complete(g);
    }
  }

  /** Spins until {@code condition} holds, failing after 10 s. */
  static void await(String what, java.util.function.BooleanSupplier condition) {
    long deadline = System.currentTimeMillis() + 10_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting: " + what);
      }
      Thread.onSpinWait();
    }
  }
}
