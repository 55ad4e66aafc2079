package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.compat.SparkLine;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.NoCrossClusterDemand;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import io.wanshuffle.spark.topology.ClusterTopology;
import io.wanshuffle.spark.topology.LinkModel;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Aggregator;
import org.apache.spark.InterruptibleIterator;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.shuffle.BaseShuffleHandle;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.shuffle.ShuffleReader;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.util.CompletionIterator$;
import org.apache.spark.util.TaskCompletionListener;
import org.apache.spark.util.collection.ExternalSorter;
import scala.Option;
import scala.Product2;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.Iterator;
import scala.collection.Seq;
import scala.runtime.BoxedUnit;

/**
 * The reduce-side reader: Spark's {@code BlockStoreShuffleReader.read()} (deserialise, count
 * records, {@link InterruptibleIterator}, {@link ExternalSorter} when a key ordering is defined
 * (built as the Spark line builds it, {@link SparkLine#sorter}), else {@code
 * Aggregator.combine*ByKey}) over a {@link GatedBlockIterator} instead of a single fetcher. Blocks
 * on hosts of the reducer's own cluster are fetched at once; cross-cluster blocks only inside steps
 * granted by the driver's coordinator.
 *
 * <p>With algorithm {@code none} the reader is Spark's, block for block (one fetcher over all
 * blocks); it only reports the cross-cluster bytes to the coordinator, one-way, when the task ends.
 * So does a gated reader whose cross-cluster blocks total fewer bytes than {@code
 * spark.wanshuffle.gate.minBytes}, after telling the coordinator that it registers no demand.
 *
 * @param <K> key type
 * @param <C> combined value type
 */
public final class WanShuffleReader<K, C> implements ShuffleReader<K, C> {
  private final BaseShuffleHandle<K, ?, C> handle;
  private final Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks;
  private final TaskContext context;
  private final ShuffleReadMetricsReporter metrics;
  private final boolean shouldBatchFetch;
  private final WanShuffleConf conf;
  private final ClusterTopology topology;
  private final LinkModel links;
  private final CoordinatorChannel channel;
  private final ReaderContext executor;

  /**
   * @param handle the shuffle handle (its dependency gives serializer, aggregator, ordering)
   * @param blocks blocks by address as the MapOutputTracker lists them for this task
   * @param context the task
   * @param metrics shuffle read metrics of the task
   * @param shouldBatchFetch {@code SortShuffleManager.canUseBatchFetch(start, end, context)}
   * @param conf wan-shuffle configuration
   * @param topology host to cluster mapping
   * @param links the links flows cross (δ of the receiving host, base speed)
   * @param channel client of the driver's coordinator
   * @param executor the executor's reader context (owned by the shuffle manager)
   */
  public WanShuffleReader(
      BaseShuffleHandle<K, ?, C> handle,
      Iterator<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> blocks,
      TaskContext context,
      ShuffleReadMetricsReporter metrics,
      boolean shouldBatchFetch,
      WanShuffleConf conf,
      ClusterTopology topology,
      LinkModel links,
      CoordinatorChannel channel,
      ReaderContext executor) {
    this.handle = handle;
    this.blocks = blocks;
    this.context = context;
    this.metrics = metrics;
    this.shouldBatchFetch = shouldBatchFetch;
    this.conf = conf;
    this.topology = topology;
    this.links = links;
    this.channel = channel;
    this.executor = executor;
  }

  /**
   * @return the task's (block, stream) pairs: gated chain, or Spark's single fetcher for none
   */
  private Iterator<Tuple2<BlockId, InputStream>> streams() {
    ShuffleDependency<K, ?, C> dep = handle.dependency();
    Fetchers fetchers =
        new Fetchers(
            context,
            metrics,
            dep,
            shouldBatchFetch,
            conf.get(Settings.STEP_PROGRESS),
            executor.predictor());
    SparkEnv env = SparkEnv.get();
    String localHost = env.blockManager().blockManagerId().host();
    CrossClusterBlocks split = new CrossClusterBlocks(blocks, localHost, topology);
    String[] hosts = split.hosts();
    long[] bytes = split.registeredBytes();
    RegisterDemand demand =
        hosts.length == 0
            ? null
            : new RegisterDemand(
                context.stageId(),
                context.stageAttemptNumber(),
                handle.shuffleId(),
                context.taskAttemptId(),
                env.executorId(),
                localHost,
                hosts,
                bytes);
    boolean small =
        demand != null
            && java.util.Arrays.stream(bytes).sum()
                < executor.gateThreshold().minBytes(conf, hosts.length, links, localHost);
    if (conf.gated() && (demand == null || small)) {
      // nothing for the coordinator to plan: it stops expecting this task's bytes
      channel.noDemand(
          new NoCrossClusterDemand(
              context.stageId(), context.stageAttemptNumber(), context.taskAttemptId(), localHost));
      if (demand == null) {
        return fetchers.open(split.sameCluster());
      }
    } else if (conf.gated()) {
      executor.registerMetrics(env.metricsSystem());
      TaskAccumulators acc = handle instanceof TaskAccumulators.Carrier c ? c.accumulators() : null;
      return new GatedBlockIterator(
          context,
          fetchers,
          split,
          channel,
          conf,
          metrics,
          demand,
          executor,
          executor.figures(acc));
    }
    List<Tuple2<BlockManagerId, Seq<Tuple3<BlockId, Object, Object>>>> all =
        new ArrayList<>(split.sameCluster());
    split.takeAll(all);
    if (demand != null) {
      long start = System.currentTimeMillis();
      context.addTaskCompletionListener(
          (TaskCompletionListener)
              ctx -> {
                channel.report(new UngatedReport(0, demand, start, System.currentTimeMillis()));
                if (!ctx.isFailed()) {
                  // the executor's connections to these hosts carried this read's blocks: they are
                  // warm, so the predicted hand-over may predict the first gated flows on them (a
                  // cold start otherwise reports those on arrival)
                  for (String h : hosts) {
                    executor.predictor().flowCompleted(h);
                  }
                }
              });
    }
    return fetchers.open(all);
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Iterator<Product2<K, C>> read() {
    ShuffleDependency<K, ?, C> dep = handle.dependency();
    SerializerInstance ser = dep.serializer().newInstance();
    Iterator<Tuple2<Object, Object>> records =
        streams().flatMap(t -> ser.deserializeStream(t._2()).asKeyValueIterator());
    Iterator<Tuple2<Object, Object>> counted =
        records.map(
            r -> {
              metrics.incRecordsRead(1);
              return r;
            });
    Iterator<Tuple2<Object, Object>> metricIter =
        CompletionIterator$.MODULE$.apply(
            counted,
            () -> {
              context.taskMetrics().mergeShuffleReadMetrics();
              return BoxedUnit.UNIT;
            });
    InterruptibleIterator<Tuple2<Object, Object>> interruptible =
        new InterruptibleIterator<>(context, metricIter);

    Iterator<Product2<K, C>> result;
    if (dep.keyOrdering().isDefined()) {
      Option<Aggregator> agg;
      if (dep.aggregator().isDefined() && dep.mapSideCombine()) {
        // values are already combined: merge combiners while sorting
        Aggregator a = dep.aggregator().get();
        agg = Option.apply(new Aggregator(x -> x, a.mergeCombiners(), a.mergeCombiners()));
      } else {
        agg = (Option) dep.aggregator();
      }
      ExternalSorter sorter =
          SparkLine.sorter(context, agg, (Option) dep.keyOrdering(), dep.serializer());
      result = sorter.insertAllAndUpdateMetrics((Iterator) interruptible);
    } else if (dep.aggregator().isDefined()) {
      Aggregator a = dep.aggregator().get();
      result =
          dep.mapSideCombine()
              ? (Iterator) a.combineCombinersByKey((Iterator) interruptible, context)
              : (Iterator) a.combineValuesByKey((Iterator) interruptible, context);
    } else {
      result = (Iterator) interruptible;
    }
    return result instanceof InterruptibleIterator
        ? result
        : new InterruptibleIterator<>(context, result);
  }
}
