package io.wanshuffle.it.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.spark.SparkCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.resource.ExecutorResourceRequests;
import org.apache.spark.resource.ResourceProfile;
import org.apache.spark.resource.ResourceProfileBuilder;
import org.apache.spark.resource.TaskResourceRequests;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * A spark-submit application for cluster managers that start and stop executors (YARN with dynamic
 * allocation): runs the TPC-H join + aggregation ({@code TpchJoinQuery}, maps pinned to the A
 * hosts, reduces to the B hosts) several times in one application, idle for a while between runs,
 * each run once an executor runs on every A host (Spark keeps a task's preferred host binding only
 * while some executor is alive there: else the map tasks would run wherever executors are), the
 * reduce stage with its own resource profile (stage-level scheduling: its executors are acquired
 * for it and released when idle), and writes what happened as JSON ({@link Result}): each run's
 * answer, its job's start and end, the executors that ran its tasks, and every executor's addition
 * and removal. Each run's answer also goes to stdout, one row a line after a line {@code RUN <n>}.
 *
 * <p>Its own settings ({@link Placement#configure}) go over spark-submit's; the master, deploy mode
 * and shuffle manager come from spark-submit. The result file's path is on a file system that the
 * driver shares with the caller, so it works in cluster deploy mode too.
 */
public final class TpchRunsMain {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration EXECUTOR_WAIT = Duration.ofSeconds(180);

  private TpchRunsMain() {}

  /**
   * One executor's life as the driver saw it.
   *
   * @param id executor id
   * @param host its host (address)
   * @param addedMs when it registered, epoch ms
   * @param removedMs when it was removed, epoch ms, or -1 if it was alive at the end
   * @param reason why it was removed (Spark's text), or null
   */
  public record Executor(String id, String host, long addedMs, long removedMs, String reason) {}

  /**
   * One run of the query.
   *
   * @param answer the answer rows ({@code TpchJoinQuery.answer}), in order
   * @param startMs when its job started, epoch ms
   * @param endMs when its job ended, epoch ms
   * @param reduceExecutors ids of the executors that ran its reduce (result) tasks
   * @param mapExecutors ids of the executors that ran its map tasks
   */
  public record Run(
      List<String> answer,
      long startMs,
      long endMs,
      List<String> reduceExecutors,
      List<String> mapExecutors) {}

  /**
   * What the application wrote.
   *
   * @param applicationId Spark's application id (YARN's in YARN)
   * @param runs the runs, in order
   * @param executors every executor the application had, in order of registration
   */
  public record Result(String applicationId, List<Run> runs, List<Executor> executors) {}

  /**
   * Records executors and the executors of each job's stages; registered with {@code
   * spark.extraListeners} so that it sees the executors that register while the context starts.
   */
  public static final class Recorder extends SparkListener {
    private static volatile Recorder last;
    private final List<Executor> executors = new ArrayList<>();
    private final List<String> reduce = new ArrayList<>();
    private final List<String> map = new ArrayList<>();
    private int resultStage = -1;
    private long jobStart;
    private long jobEnd;

    /** Called by Spark ({@code spark.extraListeners}); {@link #last()} returns it. */
    public Recorder() {
      last = this;
    }

    /**
     * @return the recorder Spark created last in this JVM
     */
    static Recorder last() {
      return last;
    }

    @Override
    public synchronized void onExecutorAdded(SparkListenerExecutorAdded e) {
      executors.add(
          new Executor(e.executorId(), e.executorInfo().executorHost(), e.time(), -1, null));
    }

    @Override
    public synchronized void onExecutorRemoved(SparkListenerExecutorRemoved e) {
      for (int i = 0; i < executors.size(); i++) {
        Executor x = executors.get(i);
        if (x.id().equals(e.executorId()) && x.removedMs() < 0) {
          executors.set(i, new Executor(x.id(), x.host(), x.addedMs(), e.time(), e.reason()));
        }
      }
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart e) {
      jobStart = e.time();
      int max = -1;
      for (Object id : scala.jdk.javaapi.CollectionConverters.asJava(e.stageIds())) {
        max = Math.max(max, (Integer) id);
      }
      resultStage = max;
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd e) {
      jobEnd = e.time();
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
      List<String> into = e.stageId() == resultStage ? reduce : map;
      if (!into.contains(e.taskInfo().executorId())) {
        into.add(e.taskInfo().executorId());
      }
    }

    synchronized void clear() {
      reduce.clear();
      map.clear();
    }

    synchronized Run run(List<String> answer) {
      return new Run(answer, jobStart, jobEnd, List.copyOf(reduce), List.copyOf(map));
    }

    synchronized List<Executor> executors() {
      return List.copyOf(executors);
    }
  }

  /**
   * The reduce stage's resource profile: executors of the configured size ({@code
   * spark.executor.cores}, {@code .memory}, {@code .memoryOverhead}), one core a task. Its tasks
   * run only on executors acquired for it (stage-level scheduling with dynamic allocation): they
   * wait for executors on the B hosts they prefer instead of running on the map side's idle
   * executors, which hold the map output and stay (shuffle tracking).
   */
  private static ResourceProfile reduceProfile(SparkConf conf) {
    ExecutorResourceRequests exec =
        new ExecutorResourceRequests()
            .cores(conf.getInt("spark.executor.cores", 1))
            .memory(conf.get("spark.executor.memory", "1g"));
    if (conf.contains("spark.executor.memoryOverhead")) {
      exec = exec.memoryOverhead(conf.get("spark.executor.memoryOverhead"));
    }
    return new ResourceProfileBuilder()
        .require(exec)
        .require(new TaskResourceRequests().cpus(1))
        .build();
  }

  /**
   * @param args {@code <result.json> <runs> <idle seconds between runs> <TPC-H scale> <map parts>
   *     <reduce parts> <A hosts, comma-separated> <B hosts, comma-separated>}
   * @throws Exception when a job fails (the driver exits non-zero)
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 8) {
      System.err.println(
          "usage: TpchRunsMain <result.json> <runs> <idle s> <scale> <map parts> <reduce parts>"
              + " <A hosts> <B hosts>");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    int runs = Integer.parseInt(args[1]);
    long idleMs = Math.round(Double.parseDouble(args[2]) * 1000);
    double scale = Double.parseDouble(args[3]);
    int mapParts = Integer.parseInt(args[4]);
    int reduceParts = Integer.parseInt(args[5]);
    List<String> aHosts = Arrays.asList(args[6].split(","));
    List<String> bHosts = Arrays.asList(args[7].split(","));
    SparkConf conf = Placement.configure(new SparkConf());
    String listeners = conf.get("spark.extraListeners", "");
    conf.set(
        "spark.extraListeners",
        (listeners.isBlank() ? "" : listeners + ",") + Recorder.class.getName());
    try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
      Recorder rec = Recorder.last();
      ResourceProfile reduceProfile = reduceProfile(conf);
      List<Run> done = new ArrayList<>();
      // every run's RDD stays reachable until the application ends: a driver GC would otherwise let
      // Spark's ContextCleaner drop its shuffle, and shuffle tracking would then release the map
      // side's executors as idle; nothing asks for new ones while no task is pending, so the next
      // run's wait for an executor on each A host would time out
      List<JavaRDD<?>> keep = new ArrayList<>();
      for (int r = 1; r <= runs; r++) {
        if (r > 1) {
          Thread.sleep(idleMs);
        }
        // map tasks wait for the A hosts' executors only if one is alive when the stage starts
        SparkCluster.awaitExecutors(jsc.sc(), aHosts, EXECUTOR_WAIT);
        rec.clear();
        JavaRDD<Map<String, long[]>> query =
            TpchJoinQuery.build(jsc, scale, mapParts, reduceParts, aHosts, bHosts)
                .withResources(reduceProfile);
        keep.add(query);
        List<String> answer = TpchJoinQuery.answer(query.collect());
        jsc.sc().listenerBus().waitUntilEmpty(30_000);
        done.add(rec.run(answer));
        System.out.println("RUN " + r);
        answer.forEach(System.out::println);
        System.out.flush();
      }
      jsc.sc().listenerBus().waitUntilEmpty(30_000);
      JSON.writeValue(out.toFile(), new Result(jsc.sc().applicationId(), done, rec.executors()));
    }
  }
}
