package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.RecordingListener;
import io.wanshuffle.spark.coordinator.StepCoordinator;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext$;
import org.apache.spark.TaskContextImpl;
import org.apache.spark.TaskKilledException;
import org.apache.spark.executor.TempShuffleReadMetrics;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockManagerId$;
import org.apache.spark.storage.ShuffleBlockId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import scala.Option;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The gated reader's fetch order and its failure paths, with a real {@link StepCoordinator}
 * in-process and fake fetchers that log which blocks were requested and when.
 */
class GatedBlockIteratorTest {
  /** Hosts a* are cluster A, b* cluster B. */
  private static final ClusterTopology TOPOLOGY =
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

  private final TaskContextImpl context = TaskContext$.MODULE$.empty();
  private final TempShuffleReadMetrics metrics = new TempShuffleReadMetrics();
  private final RecordingListener events = new RecordingListener();

  /** The executor's reader context of these tests, closed after each. */
  private final ReaderContext executor = new ReaderContext();

  /** Without samples: steps are reported on arrival unless a test measures rates. */
  private final HandoverPredictor predictor = executor.predictor();

  /** Every opened fetch: the host of each requested block, in order; "|" separates fetches. */
  private final List<String> opened = new CopyOnWriteArrayList<>();

  private StepCoordinator coordinator;

  @AfterEach
  void stop() {
    if (coordinator != null) {
      coordinator.stop();
    }
    executor.close();
  }

  private WanShuffleConf conf(String... kv) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.GATHER_WINDOW.key(), "0ms")
            .set(Settings.BETA.key(), "0ms");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return WanShuffleConf.from(c, Set.of("greedy-test"));
  }

  private DemandClient inProcess(WanShuffleConf conf) {
    return inProcess(conf, m -> {});
  }

  /** Like {@link #inProcess(WanShuffleConf)}; {@code polls} sees every poll first. */
  private DemandClient inProcess(
      WanShuffleConf conf, java.util.function.Consumer<AwaitGrant> polls) {
    return inProcess(conf, polls, (m, reply) -> reply);
  }

  /**
   * Like {@link #inProcess(WanShuffleConf, java.util.function.Consumer)}; {@code replies} maps each
   * poll's reply.
   */
  private DemandClient inProcess(
      WanShuffleConf conf,
      java.util.function.Consumer<AwaitGrant> polls,
      java.util.function.BiFunction<
              AwaitGrant, CompletableFuture<GrantReply>, CompletableFuture<GrantReply>>
          replies) {
    coordinator =
        StepCoordinator.builder(conf)
            .scheduler(new GreedyTestScheduler())
            .listeners(List.of(events))
            .timer(CoordinatorTimer.daemon("test-coordinator"))
            .clock(System::currentTimeMillis)
            .build();
    return inProcess(coordinator, polls, replies);
  }

  private static DemandClient inProcess(StepCoordinator c) {
    return inProcess(c, m -> {});
  }

  /**
   * A DemandClient that calls the coordinator directly, as the RPC endpoint would (a gated
   * registration is answered with the demand's first poll); {@code polls} sees every later poll
   * first.
   */
  private static DemandClient inProcess(
      StepCoordinator c, java.util.function.Consumer<AwaitGrant> polls) {
    return inProcess(c, polls, (m, reply) -> reply);
  }

  /**
   * Like {@link #inProcess(StepCoordinator, java.util.function.Consumer)}; {@code replies} maps
   * each poll's reply before the reader gets it.
   */
  private static DemandClient inProcess(
      StepCoordinator c,
      java.util.function.Consumer<AwaitGrant> polls,
      java.util.function.BiFunction<
              AwaitGrant, CompletableFuture<GrantReply>, CompletableFuture<GrantReply>>
          replies) {
    return new DemandClient() {
      @Override
      public CompletableFuture<Registered> register(RegisterDemand m) {
        Registered r = c.register(m);
        if (!r.opensGatedDemand()) {
          return CompletableFuture.completedFuture(r);
        }
        return c.awaitGrant(AwaitGrant.poll(r.demandId())).thenApply(g -> r.withFirstPoll(g, 0));
      }

      @Override
      public CompletableFuture<GrantReply> await(AwaitGrant m) {
        polls.accept(m);
        return replies.apply(m, c.awaitGrant(m));
      }

      @Override
      public void release(ReleaseDemand m) {
        c.release(m.demandId(), m.reason());
      }

      @Override
      public void report(UngatedReport m) {
        c.ungatedRealised(m);
      }

      @Override
      public void arrived(FlowArrived m) {
        c.flowArrived(m);
      }
    };
  }

  /** A client whose polls never answer, counting polls and releases. */
  private static final class SilentClient implements DemandClient {
    final List<ReleaseDemand> released = new CopyOnWriteArrayList<>();
    final List<UngatedReport> reports = new CopyOnWriteArrayList<>();
    final List<AwaitGrant> polls = new CopyOnWriteArrayList<>();
    final Registered registration;

    /**
     * @param failRegistration true: the registration fails; false: demand 7, gated
     */
    SilentClient(boolean failRegistration) {
      this(failRegistration ? null : new Registered(7, true));
    }

    /**
     * @param registration the answer to the registration; null: it fails
     */
    SilentClient(Registered registration) {
      this.registration = registration;
    }

    @Override
    public CompletableFuture<Registered> register(RegisterDemand m) {
      return registration == null
          ? CompletableFuture.failedFuture(new java.io.IOException("connection refused"))
          : CompletableFuture.completedFuture(registration);
    }

    @Override
    public CompletableFuture<GrantReply> await(AwaitGrant m) {
      polls.add(m);
      return new CompletableFuture<>();
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
    public void arrived(FlowArrived m) {}
  }

  private final BlockOpener fakeFetch =
      blocks -> {
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
      };

  /** Blocks for a reducer: {host, bytes} pairs, one block each (map index = position). */
  private static CrossClusterBlocks blocks(String reducerHost, Object... hostBytes) {
    Map<String, List<Tuple3<BlockId, Object, Object>>> by = new java.util.LinkedHashMap<>();
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
    Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> it =
        CollectionConverters.asScala(list.iterator());
    return new CrossClusterBlocks(it, reducerHost, TOPOLOGY);
  }

  private static RegisterDemand demandOf(CrossClusterBlocks b) {
    return new RegisterDemand(3, 0, 7, 42, "exec-b1", "b1", b.hosts(), b.registeredBytes());
  }

  /** A reader of task 42 on b1 for shuffle {@code shuffleId} (a task may read several). */
  private GatedBlockIterator readerOfShuffle(
      int shuffleId, CrossClusterBlocks b, DemandClient client, WanShuffleConf conf) {
    return new GatedBlockIterator(
        context,
        fakeFetch,
        b,
        client,
        conf,
        metrics,
        new RegisterDemand(3, 0, shuffleId, 42, "exec-b1", "b1", b.hosts(), b.registeredBytes()),
        executor);
  }

  /**
   * Asserts that every step had one flow (k = 1) and the transfers realised {@code bytes} in all.
   */
  private void assertOneFlowPerStepAndRealised(long bytes) {
    for (StepEvent s : events.steps) {
      assertEquals(1, s.flows().size(), "k = 1");
    }
    long realised = 0;
    for (TransferRecord r : events.transfers) {
      for (long x : r.bytes()) {
        realised += x;
      }
    }
    assertEquals(bytes, realised, "every cross-cluster byte fetched in granted steps");
  }

  private static int drain(GatedBlockIterator it) {
    int n = 0;
    while (it.hasNext()) {
      it.next();
      n++;
    }
    return n;
  }

  @Test
  void sameClusterBlocksAreFetchedAtOnceAndCrossClusterOnlyInGrantedSteps() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "b2", 10, "b1", 5, "a1", 100, "a1", 50, "a2", 70);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context, fakeFetch, b, inProcess(conf), conf, metrics, demandOf(b), executor);
    assertEquals(List.of("b2 b1"), opened, "same-cluster fetch opened at construction, alone");
    assertEquals(5, drain(it));
    // k = 1, delta = 1: one flow per step -> a1 (150 bytes) first, then a2
    assertEquals(List.of("b2 b1", "a1 a1", "a2"), opened);
    assertEquals(2, events.steps.size());
    for (StepEvent s : events.steps) {
      assertEquals(1, s.flows().size());
    }
    long realised = 0;
    for (TransferRecord r : events.transfers) {
      assertTrue(r.stepId() > 0);
      assertTrue(r.endMs() >= r.startMs());
      for (long x : r.bytes()) {
        realised += x;
      }
    }
    assertEquals(220, realised);
    endTaskAndAssertReleased();
  }

  /**
   * Like {@link #fakeFetch}; a step's fetch, once opened, hands its arrival callback to {@code
   * arrival} (run it: the bytes are here; keep it: they arrive later).
   */
  private BlockOpener signalling(java.util.function.Consumer<Runnable> arrival) {
    return signalling(arrival, null);
  }

  /**
   * An opener that hands each step's arrival signal to {@code arrival} and, when {@code aheadInMs}
   * is set, predicts the hand-over that many ms after the step opened.
   */
  private BlockOpener signalling(java.util.function.Consumer<Runnable> arrival, Long aheadInMs) {
    return signalling(arrival, aheadInMs, Long.MAX_VALUE);
  }

  /**
   * Like {@link #signalling(java.util.function.Consumer, Long)}, the fetcher requesting at most
   * {@code maxInFlight} bytes at once.
   */
  private BlockOpener signalling(
      java.util.function.Consumer<Runnable> arrival, Long aheadInMs, long maxInFlight) {
    return new BlockOpener() {
      @Override
      public Iterator<Tuple2<BlockId, InputStream>> open(
          List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks) {
        return fakeFetch.open(blocks);
      }

      @Override
      public Iterator<Tuple2<BlockId, InputStream>> openStep(
          List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
          Runnable onArrived,
          ArrivalTrackingClient.AheadSignal ahead,
          FlowProgress progress) {
        Iterator<Tuple2<BlockId, InputStream>> it = fakeFetch.open(blocks);
        if (ahead != null && aheadInMs != null) {
          ahead.at(System.currentTimeMillis() + aheadInMs);
        }
        arrival.accept(onArrived);
        return it;
      }

      @Override
      public long maxBytesInFlight() {
        return maxInFlight;
      }
    };
  }

  /**
   * A step is reported when its bytes have arrived, not when the task has read them: the next
   * step's fetch is opened before the task reads the first block, the task still gets every block
   * once and a step's blocks before the next step's, and with k = 1 the flows do not overlap.
   */
  @Test
  void aGatedReadCountsItsStepsBytesAndGrantWaitInTheTaskAccumulatorsAndTheExecutorSource() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "b2", 10, "b1", 5, "a1", 100, "a1", 50, "a2", 70);
    TaskAccumulators task =
        new TaskAccumulators(
            new org.apache.spark.util.LongAccumulator(),
            new org.apache.spark.util.LongAccumulator());
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            fakeFetch,
            b,
            inProcess(conf),
            conf,
            metrics,
            demandOf(b),
            executor,
            executor.figures(task));
    assertEquals(5, drain(it));
    assertEquals(220, task.gatedBytes().sum(), "the two steps' cross-cluster bytes, not b2's");
    assertEquals(220, executor.metrics().gatedBytes.getCount());
    assertEquals(1, executor.metrics().gatedReads.getCount());
    assertEquals(metrics.fetchWaitTime(), task.grantWaitMs().sum(), "the wait for grants");
    context.markTaskCompleted(scala.Option.empty());
    assertEquals(1, executor.metrics().grantWaitMs.getCount(), "one read's total wait");
  }

  @Test
  void stepIsReportedWhenItsBytesArriveAndTheNextFlowStartsBeforeTheTaskReadsThem() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 50, "a2", 70);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(Runnable::run),
            b,
            inProcess(conf),
            conf,
            metrics,
            demandOf(b),
            executor);
    assertTrue(it.hasNext());
    List<Long> maps = new ArrayList<>();
    maps.add(((ShuffleBlockId) it.next()._1()).mapId());
    // step 1 was reported when its bytes arrived: step 2 is granted while a block of step 1 is
    // still unread (reported when read, it would wait for that block)
    long deadline = System.currentTimeMillis() + 10_000;
    while (events.steps.size() < 2) {
      assertTrue(
          System.currentTimeMillis() < deadline, "step 2 not granted before step 1 was read");
      Thread.onSpinWait();
    }
    try {
      Thread.sleep(100); // the planner answers the parked poll right after recording the step
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertTrue(it.hasNext());
    assertEquals(
        List.of("", "a1 a1", "a2"),
        opened,
        "step 2 (a2) opened while step 1's second block is still unread");
    readRest(it, maps);
    assertEquals(List.of(0L, 2L, 4L), maps);
    assertEquals(2, events.transfers.size());
    TransferRecord first = events.transfers.get(0);
    TransferRecord second = events.transfers.get(1);
    assertEquals(List.of("a1"), first.srcHosts());
    assertArrayEquals(new long[] {150}, first.bytes());
    assertArrayEquals(new long[] {70}, second.bytes());
    assertTrue(first.endMs() <= second.startMs(), "k = 1: one flow at a time");
    endTaskAndAssertReleased();
  }

  /**
   * The grant answering a reported step is opened when it arrives, not when the task next reads:
   * the task holds step 1's first block (busy with its records, or blocked on the next one) when
   * step 1's bytes arrive; step 2's fetch is requested without the task calling the reader. The
   * task then reads step 1's blocks before step 2's, each once, and k = 1 still holds.
   */
  @Test
  void theNextStepOpensOnItsGrantWhileTheTaskIsBusyWithTheReportedOne() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 50, "a2", 70);
    List<Runnable> arrivals = new CopyOnWriteArrayList<>();
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(arrivals::add),
            b,
            inProcess(conf),
            conf,
            metrics,
            demandOf(b),
            executor);
    assertTrue(it.hasNext());
    long first = ((ShuffleBlockId) it.next()._1()).mapId();
    assertEquals(List.of("", "a1 a1"), opened);
    arrivals.get(0).run(); // step 1's bytes arrive while the task is busy
    awaitOpened("a2"); // while the task was busy
    List<Long> maps = new ArrayList<>(List.of(first));
    readRest(it, maps);
    assertEquals(List.of(0L, 2L, 4L), maps, "step 1's blocks, then step 2's, each once");
    assertEquals(List.of("", "a1 a1", "a2"), opened);
    assertEquals(2, events.transfers.size());
    assertTrue(
        events.transfers.get(0).endMs() <= events.transfers.get(1).startMs(),
        "k = 1: one flow at a time");
    endTaskAndAssertReleased();
  }

  /**
   * Steps opened on their grant run ahead of a task that reads slower than the network (here: has
   * not read anything, as when it is busy with the records of one large block) only within what the
   * fetcher requests at once. Every step's bytes arrive at once; with 250 B in flight only two
   * steps open (100 B it reads and the next 90 B; 80 B more would exceed the limit) and the third
   * when the task reads on; with 1000 B all three open ahead of the task.
   */
  @ParameterizedTest
  @CsvSource({"250, 2", "1000, 3"})
  void stepsOpenedOnTheirGrantRunAheadOfTheTaskOnlyWithinTheInFlightLimit(
      long maxInFlight, int stepsAhead) throws InterruptedException {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 90, "a3", 80);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(Runnable::run, null, maxInFlight),
            b,
            inProcess(conf),
            conf,
            metrics,
            demandOf(b),
            executor);
    assertTrue(it.hasNext());
    List<String> ahead = List.of("", "a1", "a2", "a3").subList(0, stepsAhead + 1);
    awaitOpened(ahead.get(stepsAhead));
    Thread.sleep(300); // time for one more step to open if nothing held it back
    assertEquals(ahead, opened, "no more ahead of the task than in flight");
    List<Long> maps = new ArrayList<>();
    readRest(it, maps);
    assertEquals(List.of(0L, 2L, 4L), maps);
    assertEquals(List.of("", "a1", "a2", "a3"), opened);
    endTaskAndAssertReleased();
  }

  /**
   * A task that reads slower than the network but reads on (busy with the records of a step whose
   * bytes arrived two steps ago) keeps its grants while the steps it has not read and the new one
   * fit within what the fetcher requests at once: step 3 opens while step 1 is still being read.
   * With a smaller in-flight limit the same grant is handed back and step 3 opens only once the
   * task has read step 1. Either way every block is read once, in step order.
   */
  @ParameterizedTest
  @CsvSource({"1000, true", "300, false"})
  void aTaskBehindTheNetworkKeepsItsGrantsWithinTheInFlightLimit(
      long maxInFlight, boolean opensAhead) throws InterruptedException {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 50, "a2", 90, "a3", 80);
    List<Runnable> arrivals = new CopyOnWriteArrayList<>();
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(arrivals::add, null, maxInFlight),
            b,
            inProcess(conf),
            conf,
            metrics,
            demandOf(b),
            executor);
    assertTrue(it.hasNext());
    List<Long> maps = new ArrayList<>(List.of(((ShuffleBlockId) it.next()._1()).mapId()));
    assertEquals(List.of("", "a1 a1"), opened);
    arrivals.get(0).run(); // step 1's 150 B arrive
    awaitOpened("a2");
    assertTrue(it.hasNext()); // the task reads on inside step 1 and takes up step 2
    maps.add(((ShuffleBlockId) it.next()._1()).mapId());
    awaitArrival(arrivals, 1).run(); // step 2's 90 B arrive while the task still works on step 1
    if (opensAhead) {
      awaitOpened("a3");
    } else {
      Thread.sleep(300); // time for step 3 to open if nothing held it back
      assertFalse(
          opened.contains("a3"), "240 B unread + 80 B exceed the 300 B in flight: " + opened);
    }
    while (it.hasNext()) {
      maps.add(((ShuffleBlockId) it.next()._1()).mapId());
      if (arrivals.size() > 2) {
        arrivals.get(2).run();
      }
    }
    assertEquals(List.of(0L, 2L, 4L, 6L), maps, "every block once, in step order");
    assertEquals(List.of("", "a1 a1", "a2", "a3"), opened);
    assertEquals(3, events.transfers.size());
    endTaskAndAssertReleased();
  }

  /** Reads the reader to its end, appending the blocks' map ids to {@code maps}. */
  private static void readRest(GatedBlockIterator it, List<Long> maps) {
    while (it.hasNext()) {
      maps.add(((ShuffleBlockId) it.next()._1()).mapId());
    }
  }

  /** Ends the task: the coordinator then holds no flow and no demand of it. */
  private void endTaskAndAssertReleased() {
    context.markTaskCompleted(Option.empty());
    assertEquals(0, coordinator.openFlowCount());
    assertEquals(0, coordinator.pendingDemandCount());
  }

  /** The arrival callback of the step-th opened step: registered just after the step opens. */
  private static Runnable awaitArrival(List<Runnable> arrivals, int step) {
    long deadline = System.currentTimeMillis() + 10_000;
    while (arrivals.size() <= step) {
      assertTrue(
          System.currentTimeMillis() < deadline, "step " + step + " has no arrival callback");
      Thread.onSpinWait();
    }
    return arrivals.get(step);
  }

  private void awaitOpened(String hosts) {
    long deadline = System.currentTimeMillis() + 10_000;
    while (!opened.contains(hosts)) {
      assertTrue(System.currentTimeMillis() < deadline, hosts + " not opened: " + opened);
      Thread.onSpinWait();
    }
  }

  /**
   * A step whose opening fails on the step-opener thread (its blocks are taken) fails the task with
   * that error on its next read, as when the task thread opens it; it never ends the read early.
   */
  @Test
  void aStepThatFailsToOpenOnItsGrantFailsTheTask() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 90);
    List<Runnable> arrivals = new CopyOnWriteArrayList<>();
    BlockOpener failsSecond =
        signalling(
            onArrived -> {
              if (!arrivals.isEmpty()) {
                throw new IllegalStateException("block manager stopped");
              }
              arrivals.add(onArrived);
            });
    GatedBlockIterator it =
        new GatedBlockIterator(
            context, failsSecond, b, inProcess(conf), conf, metrics, demandOf(b), executor);
    assertTrue(it.hasNext());
    it.next();
    arrivals
        .get(0)
        .run(); // step 1 arrived: step 2 is granted and fails to open off the task thread
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> drain(it));
    assertEquals("block manager stopped", e.getMessage());
  }

  /**
   * Predicted hand-over: told to report 150 ms after its requests, step 1 (150 B from a1) is
   * reported then, while its last block has not arrived; with k = 1 the next step is granted and
   * opened then. The arrival signal later records step 1's real end; step 2, whose arrival is never
   * signalled, gets its end when the task has read it.
   */
  @Test
  void stepIsReportedAheadOfItsArrivalAsPredictedAndItsEndRecordedLater() {
    WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.STEP_HANDOVER.key(), "predicted");
    List<Runnable> signals = new CopyOnWriteArrayList<>();
    List<AwaitGrant> reports = new CopyOnWriteArrayList<>();
    DemandClient client =
        inProcess(
            conf,
            m -> {
              if (m.doneStepId() != 0) {
                reports.add(m);
              }
            });
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 50, "a2", 70);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(signals::add, 150L),
            b,
            client,
            conf,
            metrics,
            demandOf(b),
            executor);
    assertTrue(it.hasNext());
    long deadline = System.currentTimeMillis() + 10_000;
    while (events.steps.size() < 2) {
      assertTrue(System.currentTimeMillis() < deadline, "step 2 not granted ahead of step 1's end");
      Thread.onSpinWait();
    }
    while (signals.size() < 2) {
      assertTrue(System.currentTimeMillis() < deadline, "step 2 not opened on its grant");
      Thread.onSpinWait();
    }
    assertEquals(
        List.of("", "a1 a1", "a2"),
        opened,
        "step 2 opened on its grant, before step 1's last block arrived");
    assertTrue(reports.get(0).reportsAhead());
    assertEquals(150, reports.get(0).fetchedBytes()[0], "the whole step is requested");
    assertTrue(events.transfers.isEmpty(), "no record before the arrival");
    long beforeArrival = System.currentTimeMillis();
    signals.get(0).run();
    assertEquals(1, events.transfers.size());
    assertTrue(events.transfers.get(0).endMs() >= beforeArrival, "ends at its arrival");
    assertEquals(3, drain(it));
    assertEquals(List.of("", "a1 a1", "a2"), opened);
    context.markTaskCompleted(Option.empty());
    assertEquals(2, events.transfers.size(), "step 2's end recorded when the task read it");
    assertArrayEquals(new long[] {70}, events.transfers.get(1).bytes());
    assertEquals(0, coordinator.openFlowCount());
  }

  /**
   * Predicted hand-over: a reply the coordinator held for ports says how long ({@code heldMs}), and
   * the executor leaves that out of its hand-over loop, so {@code c} stays the coordinator's round
   * trip, not the wait. Here every reply to a report comes 60 ms late, all of it held; without the
   * rule {@code c} would be at least 60 ms.
   */
  @Test
  void aHandOverLoopLeavesOutTheTimeTheCoordinatorHeldItForPorts() {
    WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.STEP_HANDOVER.key(), "predicted");
    java.util.concurrent.Executor late =
        CompletableFuture.delayedExecutor(60, java.util.concurrent.TimeUnit.MILLISECONDS);
    DemandClient holding =
        inProcess(
            conf,
            m -> {},
            (m, reply) ->
                m.doneStepId() == 0 ? reply : reply.thenApplyAsync(g -> g.withHeldMs(60), late));
    List<Runnable> signals = new CopyOnWriteArrayList<>();
    CrossClusterBlocks b = blocks("b1", "a1", 10, "a2", 10, "a3", 10, "a4", 10);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(signals::add, 0L),
            b,
            holding,
            conf,
            metrics,
            demandOf(b),
            executor);
    assertEquals(4, drain(it));
    signals.forEach(Runnable::run);
    assertEquals(4, events.steps.size(), "one step per source host (k = 1)");
    long c = predictor.coordinatorDelayMs();
    assertTrue(c < 60, "c = " + c + " ms: the 60 ms held for ports counted as coordinator delay");
  }

  /** With {@code step.handover = arrival} a step is never reported before its bytes arrived. */
  @Test
  void arrivalHandoverNeverReportsAhead() {
    WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.STEP_HANDOVER.key(), "arrival");
    List<AwaitGrant> reports = new CopyOnWriteArrayList<>();
    CrossClusterBlocks b = blocks("b1", "a1", 10, "a2", 10);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(r -> {}, 0L),
            b,
            inProcess(
                conf,
                m -> {
                  if (m.doneStepId() != 0) {
                    reports.add(m);
                  }
                }),
            conf,
            metrics,
            demandOf(b),
            executor);
    assertEquals(2, drain(it));
    assertEquals(2, reports.size());
    assertTrue(reports.stream().noneMatch(AwaitGrant::reportsAhead));
  }

  /** A step whose arrival is signalled after the task read it is still reported exactly once. */
  @Test
  void lateArrivalSignalDoesNotReportAStepTwice() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    List<Runnable> signals = new CopyOnWriteArrayList<>();
    BlockOpener lateFetch = signalling(signals::add);
    Map<Long, Integer> reportsPerStep = new java.util.concurrent.ConcurrentHashMap<>();
    DemandClient counting =
        inProcess(
            conf,
            m -> {
              if (m.doneStepId() != 0) {
                reportsPerStep.merge(m.doneStepId(), 1, Integer::sum);
              }
            });
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 70);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context, lateFetch, b, counting, conf, metrics, demandOf(b), executor);
    assertEquals(2, drain(it));
    assertEquals(2, signals.size());
    signals.forEach(Runnable::run);
    assertEquals(Map.of(1L, 1, 2L, 1), reportsPerStep);
    assertEquals(2, events.transfers.size());
  }

  /** Preemptive test scheduler: the first step carries half of the largest transfer. */
  private static final class HalvingScheduler implements io.wanshuffle.scheduler.StepScheduler {
    @Override
    public String name() {
      return "halving";
    }

    @Override
    public io.wanshuffle.scheduler.Schedule schedule(
        io.wanshuffle.scheduler.TrafficMatrix m, io.wanshuffle.scheduler.Platform p) {
      io.wanshuffle.scheduler.Transfer t =
          new io.wanshuffle.scheduler.Transfer(0, 0, m.amount(0, 0) / 2);
      return new io.wanshuffle.scheduler.Schedule(
          List.of(
              io.wanshuffle.scheduler.Step.of(List.of(t)),
              io.wanshuffle.scheduler.Step.of(List.of(t))));
    }
  }

  @Test
  void budgetsSplitAHostsBlocksOverStepsAtBlockGranularity() {
    WanShuffleConf conf =
        WanShuffleConf.from(
            new SparkConf(false)
                .set(Settings.ALGORITHM.key(), "halving")
                .set(Settings.GATHER_WINDOW.key(), "0ms")
                .set(Settings.K.key(), "1"),
            Set.of("halving"));
    coordinator =
        StepCoordinator.builder(conf)
            .scheduler(new HalvingScheduler())
            .listeners(List.of(events))
            .timer(CoordinatorTimer.daemon("test-coordinator"))
            .clock(System::currentTimeMillis)
            .build();
    DemandClient client = inProcess(coordinator);
    CrossClusterBlocks b = blocks("b1", "a1", 40, "a1", 40, "a1", 40);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertEquals(3, drain(it));
    // step 1: budget 60 of 120 -> blocks while fetched < 60: 40 + 40; step 2: budget 20 of 40 ->
    // at least one block: the last 40
    assertEquals(List.of("", "a1 a1", "a1"), opened);
    assertEquals(60, events.steps.get(0).flows().get(0).bytes());
    assertEquals(80, events.transfers.get(0).bytes()[0]);
    assertEquals(40, events.transfers.get(1).bytes()[0]);
  }

  /**
   * A grant larger than what the fetcher requests at once ({@code spark.reducer.maxSizeInFlight})
   * is taken only up to that, so every step's bytes arrive whatever the task does with them; the
   * rest comes in later steps, every block once.
   */
  @Test
  void aStepTakesNoMoreThanTheFetcherRequestsAtOnce() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 100, "a1", 100, "a2", 60);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            signalling(Runnable::run, null, 250),
            b,
            inProcess(conf),
            conf,
            metrics,
            demandOf(b),
            executor);
    List<Long> maps = new ArrayList<>();
    readRest(it, maps);
    assertEquals(List.of(0L, 2L, 4L, 6L), maps.stream().sorted().toList(), "every block once");
    assertTrue(
        events.transfers.size() >= 3, "300 B from a1 take two steps of at most 250 B: " + opened);
    for (TransferRecord r : events.transfers) {
      assertTrue(
          java.util.Arrays.stream(r.bytes()).sum() <= 250,
          "a step took more than in flight: " + java.util.Arrays.toString(r.bytes()));
    }
    assertEquals(
        360,
        events.transfers.stream().mapToLong(r -> java.util.Arrays.stream(r.bytes()).sum()).sum());
    context.markTaskCompleted(Option.empty());
    assertEquals(0, coordinator.openFlowCount());
  }

  /**
   * A task that stalls in the middle of its read (a straggler, a slow consumer) holds no ports:
   * with k = 1 the step it reads and the one opened for it arrive, the grant after them is handed
   * back (it would exceed the 250 B the fetcher requests at once), and another receiver's task is
   * granted and reads its blocks through the gate while the first task still has not read on (it
   * does not wait for {@code grant.maxWait}); then the first task reads everything, each block
   * once.
   */
  @Test
  void aStalledTaskHandsBackTheGrantItCannotTakeUpSoOtherReceiversAreServed() {
    WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.MAX_GRANT_WAIT.key(), "20s");
    DemandClient client = inProcess(conf);
    CrossClusterBlocks b1 = blocks("b1", "a1", 100, "a2", 90, "a3", 80);
    GatedBlockIterator stalled =
        new GatedBlockIterator(
            context,
            signalling(Runnable::run, null, 250),
            b1,
            client,
            conf,
            metrics,
            demandOf(b1),
            executor);
    assertTrue(stalled.hasNext());
    List<Long> maps = new ArrayList<>(List.of(((ShuffleBlockId) stalled.next()._1()).mapId()));
    long deadline = System.currentTimeMillis() + 10_000;
    while (!opened.contains("a2") || coordinator.openFlowCount() > 0) {
      assertTrue(
          System.currentTimeMillis() < deadline, "the stalled task still holds a flow: " + opened);
      Thread.onSpinWait();
    }
    assertEquals(1, coordinator.pendingDemandCount(), "its demand waits, out of planning");

    TaskContextImpl other = TaskContext$.MODULE$.empty();
    CrossClusterBlocks b2 = blocks("b2", "a3", 50);
    RegisterDemand d2 =
        new RegisterDemand(3, 0, 7, 43, "exec-b2", "b2", b2.hosts(), b2.registeredBytes());
    long t0 = System.nanoTime();
    GatedBlockIterator served =
        new GatedBlockIterator(
            other,
            signalling(Runnable::run),
            b2,
            client,
            conf,
            new TempShuffleReadMetrics(),
            d2,
            executor);
    assertEquals(1, drain(served));
    assertTrue(
        (System.nanoTime() - t0) / 1_000_000 < 5_000,
        "the other receiver waited for the stalled one");
    assertTrue(
        events.transfers.stream().anyMatch(r -> r.dstHost().equals("b2") && r.stepId() > 0),
        "the other receiver was granted a step: " + events.transfers);
    other.markTaskCompleted(Option.empty());

    while (stalled.hasNext()) {
      maps.add(((ShuffleBlockId) stalled.next()._1()).mapId());
    }
    assertEquals(
        List.of(0L, 2L, 4L), maps, "the stalled task reads every block once, in step order");
    endTaskAndAssertReleased();
  }

  @Test
  void rateCapPacesAStepInChunks() {
    // cap 1000 B/s: chunks of ~200 B per source host; the second chunk may start only once the
    // first 200 B are "due" at the cap, i.e. 200 ms after the step started
    WanShuffleConf conf = conf(Settings.K.key(), "1", Settings.FLOW_RATE_CAP.key(), "1000");
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a1", 100, "a1", 100);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context, fakeFetch, b, inProcess(conf), conf, metrics, demandOf(b), executor);
    assertEquals(3, drain(it));
    assertEquals(List.of("", "a1 a1", "a1"), opened, "one step, fetched in two paced chunks");
    TransferRecord r = events.transfers.get(0);
    assertEquals(300, r.bytes()[0]);
    assertTrue(r.endMs() - r.startMs() >= 190, "step took " + (r.endMs() - r.startMs()) + " ms");
  }

  /**
   * The coordinator answers a gated registration with the demand's first poll: a task whose
   * registration carries its first grant starts fetching without a poll of its own (one round trip
   * to the driver instead of two), and its later polls only report steps.
   */
  @Test
  void theFirstGrantComesWithTheRegistration() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    List<AwaitGrant> polls = new CopyOnWriteArrayList<>();
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 70);
    GatedBlockIterator it =
        new GatedBlockIterator(
            context,
            fakeFetch,
            b,
            inProcess(conf, polls::add),
            conf,
            metrics,
            demandOf(b),
            executor);
    assertEquals(2, drain(it));
    assertEquals(List.of("", "a1", "a2"), opened);
    assertEquals(2, polls.size(), "one report per step, no poll for the first grant: " + polls);
    assertTrue(polls.stream().allMatch(p -> p.doneStepId() != 0));
  }

  /**
   * A registration answered with {@code NOT_YET} (the poll interval passed) is followed by a poll.
   */
  @Test
  void aRegistrationAnsweredNotYetIsFollowedByAPoll() {
    WanShuffleConf conf = conf(Settings.MAX_GRANT_WAIT.key(), "200ms");
    SilentClient client =
        new SilentClient(new Registered(7, true, GrantReply.of(GrantReply.Status.NOT_YET), 10_000));
    CrossClusterBlocks b = blocks("b1", "a1", 100);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertEquals(1, drain(it), "ungated after grant.maxWait");
    assertEquals(1, client.polls.size());
    assertEquals(7, client.polls.get(0).demandId());
    assertEquals(0, client.polls.get(0).doneStepId());
    assertFalse(client.polls.get(0).idle());
  }

  @Test
  void unreachableCoordinatorFallsBackToUngatedFetching() {
    WanShuffleConf conf = conf();
    CrossClusterBlocks b = blocks("b1", "b2", 10, "a1", 100);
    SilentClient client = new SilentClient(true);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertEquals(2, drain(it));
    assertEquals(List.of("b2", "a1"), opened);
    assertEquals(1, client.reports.size(), "the ungated bytes are reported for the capture");
    assertEquals(100, client.reports.get(0).demand().bytes()[0]);
    assertTrue(client.released.isEmpty(), "nothing registered, nothing to release");
  }

  /**
   * A registration answered "not gated" (the coordinator decided the stage is not gated: at its
   * first plan or while it runs) is fetched at once and its bytes reported with the demand's id, so
   * that the coordinator counts them realised once and registered once.
   */
  @Test
  void aRegistrationOfAnUngatedStageIsFetchedAndReportedWithItsDemandId() {
    WanShuffleConf conf = conf();
    CrossClusterBlocks b = blocks("b1", "a1", 100, "a2", 50);
    SilentClient client = new SilentClient(new Registered(9, false));
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertEquals(2, drain(it));
    assertEquals(1, client.reports.size(), "the ungated bytes are reported for the capture");
    assertEquals(9, client.reports.get(0).demandId(), "with the registered demand's id");
    assertEquals(150, java.util.Arrays.stream(client.reports.get(0).demand().bytes()).sum());
    assertTrue(client.polls.isEmpty(), "no poll for a demand the coordinator does not gate");
    assertTrue(client.released.isEmpty(), "the coordinator released it already");
  }

  @Test
  void grantWaitIsBoundedByMaxWaitAndCountsAsFetchWait() {
    WanShuffleConf conf = conf(Settings.MAX_GRANT_WAIT.key(), "300ms");
    CrossClusterBlocks b = blocks("b1", "a1", 100);
    SilentClient client = new SilentClient(false);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertEquals(1, drain(it));
    assertEquals(List.of("", "a1"), opened);
    assertTrue(metrics.fetchWaitTime() >= 250, "waited " + metrics.fetchWaitTime() + " ms");
    assertEquals(1, client.released.size(), "the registered demand is released");
    assertEquals("ungated", client.released.get(0).reason());
  }

  @Test
  void killedTaskStopsWaitingForAGrant() throws Exception {
    WanShuffleConf conf = conf();
    CrossClusterBlocks b = blocks("b1", "a1", 100);
    SilentClient client = new SilentClient(false);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    Thread killer =
        new Thread(
            () -> {
              try {
                Thread.sleep(300);
              } catch (InterruptedException e) {
                return;
              }
              context.markInterrupted("killed by test");
            });
    killer.start();
    assertThrows(TaskKilledException.class, it::hasNext);
    killer.join();
    context.markTaskCompleted(Option.empty());
    assertEquals(1, client.released.size());
    assertEquals("task-killed", client.released.get(0).reason());
  }

  @Test
  void taskEndingEarlyReleasesItsDemand() {
    WanShuffleConf conf = conf(Settings.K.key(), "1");
    CrossClusterBlocks b = blocks("b1", "b2", 10, "a1", 100);
    DemandClient client = inProcess(conf);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertTrue(it.hasNext());
    it.next(); // the local block only, e.g. a take(1)
    assertEquals(1, coordinator.pendingDemandCount());
    context.markTaskCompleted(Option.empty());
    // released at once if the registration was answered, else as soon as it is (with its id)
    long deadline = System.currentTimeMillis() + 10_000;
    while (coordinator.pendingDemandCount() > 0 || coordinator.openFlowCount() > 0) {
      assertTrue(
          System.currentTimeMillis() < deadline, "the demand of the ended task is not released");
      Thread.onSpinWait();
    }
    assertFalse(events.released.isEmpty());
  }

  @Test
  void unknownHostsAreNotGated() {
    WanShuffleConf conf = conf();
    CrossClusterBlocks b = blocks("b1", "zz", 10, "b3", 10);
    SilentClient client = new SilentClient(false);
    GatedBlockIterator it =
        new GatedBlockIterator(context, fakeFetch, b, client, conf, metrics, demandOf(b), executor);
    assertEquals(2, drain(it));
    assertEquals(List.of("zz b3"), opened);
  }

  /**
   * A cogroup reduce task (Spark's CoGroupedRDD): it creates the readers of both shuffles, then
   * reads shuffle 0 to the end before it asks shuffle 1 for its first block. With k = 1 and the
   * larger demand on shuffle 1, a grant to the reader that is not read yet would hold the only flow
   * while the task waits on the other one: the task must finish anyway, long before {@code
   * grant.maxWait}, with at most k flows open at any time.
   */
  @Test
  void twoShufflesReadOneAfterTheOtherInOneTaskDoNotStarve() {
    WanShuffleConf conf =
        conf(
            Settings.K.key(),
            "1",
            Settings.STEP_MIN_DEADLINE.key(),
            "200ms",
            Settings.MAX_GRANT_WAIT.key(),
            "1h",
            Settings.GATHER_WINDOW.key(),
            "300ms");
    DemandClient client = inProcess(conf);
    CrossClusterBlocks b0 = blocks("b1", "b2", 10, "a1", 100, "a1", 100);
    CrossClusterBlocks b1 = blocks("b1", "a2", 500, "a2", 500);
    GatedBlockIterator first =
        new GatedBlockIterator(
            context, fakeFetch, b0, client, conf, metrics, demandOf(b0), executor);
    assertTrue(first.hasNext(), "the task starts on shuffle 0 (its local block)");
    GatedBlockIterator second =
        new GatedBlockIterator(
            context,
            fakeFetch,
            b1,
            client,
            conf,
            metrics,
            new RegisterDemand(3, 0, 8, 42, "exec-b1", "b1", b1.hosts(), b1.registeredBytes()),
            executor);
    int n =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(10), () -> drain(first) + drain(second));
    assertEquals(5, n);
    assertOneFlowPerStepAndRealised(1200);
    assertTrue(opened.stream().noneMatch(o -> o.contains("a1") && o.contains("a2")));
    endTaskAndAssertReleased();
  }

  /**
   * A sort-merge join reads two shuffles interleaved: both readers have registered, the plan grants
   * the only flow (k = 1) to the larger demand, and the task then waits on the other shuffle. The
   * waiting reader makes its sibling stand aside (idle): the coordinator takes back the unstarted
   * grant and plans the shuffle being waited on, so the task finishes well before {@code
   * grant.maxWait}, every byte in granted steps of one flow.
   */
  @Test
  void twoShufflesReadInterleavedInOneTaskDoNotStarve() {
    WanShuffleConf conf =
        conf(
            Settings.K.key(),
            "1",
            Settings.STEP_MIN_DEADLINE.key(),
            "1h",
            Settings.MAX_GRANT_WAIT.key(),
            "1h",
            Settings.GATHER_WINDOW.key(),
            "300ms");
    DemandClient client = inProcess(conf);
    CrossClusterBlocks b0 = blocks("b1", "b2", 10, "a1", 100, "a1", 100);
    CrossClusterBlocks b1 = blocks("b1", "b3", 10, "a2", 500, "a2", 500);
    GatedBlockIterator left = readerOfShuffle(7, b0, client, conf);
    GatedBlockIterator right = readerOfShuffle(8, b1, client, conf);
    int n =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(10),
            () -> {
              int c = 0;
              // the first row of each side (same-cluster blocks), then the left side to its end
              // while the right side's grant (the larger demand) is outstanding, then the right
              // side
              left.next();
              right.next();
              Thread.sleep(600); // past the gather window: the one-flow step goes to the right side
              return 2 + drain(left) + drain(right);
            });
    assertEquals(6, n);
    assertTrue(events.steps.size() >= 2);
    assertEquals(
        "a2",
        events.steps.get(0).flows().get(0).srcHost(),
        "the first step went to the side not being read");
    assertOneFlowPerStepAndRealised(1200);
    endTaskAndAssertReleased();
  }

  /**
   * A task reading two shuffles interleaved (a zip, a sort-merge join), k = 1. The left reader's
   * step is reported and its long-poll expires (NOT_YET) while the task reads the right shuffle;
   * the coordinator's next plan grants the left demand, whose poll has expired, so the grant
   * reaches no reader. The task then waits on the right shuffle: the left reader must act on its
   * expired poll (go idle, which hands the uncollected grant back) rather than leave the grant
   * holding the only flow until its deadline (here the deadline and grant.maxWait are an hour, so
   * the test times out if it does).
   */
  @Test
  void anExpiredPollOfTheShuffleNotBeingReadDoesNotLeaveItsNextGrantHoldingTheFlow() {
    WanShuffleConf conf =
        conf(
            Settings.K.key(),
            "1",
            Settings.STEP_MIN_DEADLINE.key(),
            "1h",
            Settings.MAX_GRANT_WAIT.key(),
            "1h");
    List<AwaitGrant> reports = new CopyOnWriteArrayList<>();
    List<CompletableFuture<GrantReply>> reportReplies = new CopyOnWriteArrayList<>();
    DemandClient client =
        inProcess(
            conf,
            m -> {},
            (m, reply) -> {
              if (m.doneStepId() != 0) {
                reports.add(m);
                reportReplies.add(reply);
              }
              return reply;
            });
    List<Runnable> arrivals = new CopyOnWriteArrayList<>();
    BlockOpener fetch = signalling(arrivals::add);
    CrossClusterBlocks b0 = blocks("b1", "b2", 10, "a1", 100, "a3", 90);
    CrossClusterBlocks b1 = blocks("b1", "b3", 10, "a2", 95, "a4", 85);
    GatedBlockIterator left =
        new GatedBlockIterator(
            context,
            fetch,
            b0,
            client,
            conf,
            metrics,
            new RegisterDemand(3, 0, 7, 42, "exec-b1", "b1", b0.hosts(), b0.registeredBytes()),
            executor);
    GatedBlockIterator right =
        new GatedBlockIterator(
            context,
            fetch,
            b1,
            client,
            conf,
            metrics,
            new RegisterDemand(3, 0, 8, 42, "exec-b1", "b1", b1.hosts(), b1.registeredBytes()),
            executor);
    int n =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(20),
            () -> {
              left.next(); // same-cluster block; the only demand yet: a1 is granted with the
              // registration
              left.next(); // a1's block: step 1 opened
              right.next(); // same-cluster block; right's registration waits for the flow
              arrivals
                  .get(0)
                  .run(); // a1's bytes arrive: step 1 reported; a2 (95) goes before a3 (90)
              long deadline = System.currentTimeMillis() + 10_000;
              while (reports.isEmpty() || events.steps.size() < 2) {
                assertTrue(
                    System.currentTimeMillis() < deadline,
                    "step 1 not reported or step 2 not planned");
                Thread.onSpinWait();
              }
              AwaitGrant leftReport = reports.get(0);
              assertEquals("a1", leftReport.srcHosts()[0]);
              coordinator.pollExpired(
                  leftReport.demandId(), reportReplies.get(0)); // the left's long-poll expires
              right.next(); // a2's block: step 2
              arrivals
                  .get(1)
                  .run(); // a2 arrives: a3 (90) before a4 (85), granted to a demand nobody polls
              // for
              while (events.steps.size() < 3) {
                assertTrue(
                    System.currentTimeMillis() < deadline, "step 3 not planned: " + events.steps);
                Thread.onSpinWait();
              }
              assertEquals(
                  "a3",
                  events.steps.get(2).flows().get(0).srcHost(),
                  "the left demand got the flow");
              Thread runArrivals =
                  new Thread(
                      () -> {
                        for (int i = 2; i < 10 && !Thread.currentThread().isInterrupted(); i++) {
                          try {
                            awaitArrival(arrivals, i).run();
                          } catch (AssertionError e) {
                            return;
                          }
                        }
                      });
              runArrivals.setDaemon(true);
              runArrivals.start();
              int c =
                  4
                      + drain(right)
                      + drain(left); // the task waits on a4 while a3's grant is uncollected
              runArrivals.interrupt();
              return c;
            });
    assertEquals(6, n);
    assertOneFlowPerStepAndRealised(370);
    endTaskAndAssertReleased();
  }

  /**
   * With a rate cap a step opens its chunks only as the task reads them. A task that reads a paced
   * step's first block, then another shuffle (a zip of two shuffles, a sort-merge join) must not
   * leave the paced step holding the only flow (k = 1) while the other shuffle waits for it (the
   * task would wait for grant.maxWait). The waiting reader makes the paced one end its step at the
   * chunks it opened; the rest of its blocks come in a later grant.
   */
  @Test
  void aPacedStepLeftForAnotherShuffleEndsSoThatShufflesGrantIsServed() {
    WanShuffleConf conf =
        conf(
            Settings.K.key(),
            "1",
            Settings.FLOW_RATE_CAP.key(),
            "1000",
            Settings.STEP_MIN_DEADLINE.key(),
            "1h",
            Settings.MAX_GRANT_WAIT.key(),
            "1h");
    DemandClient client = inProcess(conf);
    CrossClusterBlocks b0 = blocks("b1", "b2", 10, "a1", 100, "a1", 100, "a1", 100);
    CrossClusterBlocks b1 = blocks("b1", "b3", 10, "a2", 150);
    GatedBlockIterator left = readerOfShuffle(7, b0, client, conf);
    GatedBlockIterator right = readerOfShuffle(8, b1, client, conf);
    int n =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(20),
            () -> {
              left.next(); // same-cluster block
              left.next(); // first block of the paced step: chunk [a1 a1] opened, [a1] not yet
              return 2 + drain(right) + drain(left);
            });
    assertEquals(6, n);
    for (StepEvent s : events.steps) {
      assertEquals(1, s.flows().size(), "k = 1");
    }
    assertEquals(
        List.of("a1", "a2", "a1"),
        events.steps.stream().map(s -> s.flows().get(0).srcHost()).toList(),
        "the paced step ended, a2's step, then a1's rest");
    assertEquals(
        List.of(200L, 150L, 100L),
        events.transfers.stream().map(r -> r.bytes()[0]).toList(),
        "the cut step reports the chunk it opened; its other block comes in the third step");
    endTaskAndAssertReleased();
  }
}
