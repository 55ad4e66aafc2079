package io.wanshuffle.bench.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.spark.compat.ScalaFutures;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.RpcEnv$;
import org.apache.spark.rpc.RpcTimeout;
import org.apache.spark.util.RpcUtils;
import scala.concurrent.duration.FiniteDuration;
import scala.reflect.ClassTag$;

/**
 * A client JVM of {@code bench coordinator --mode rpc}: the executors of every host whose index
 * modulo the clients is this client's, in one JVM with one client-mode {@code RpcEnv} and the
 * plugin's {@link CoordinatorChannel}, running the task slots of those hosts ({@link
 * TaskSimulator}). Writes what its tasks saw to a file ({@link FlowLog}) and exits.
 *
 * <p>Arguments: the configuration's JSON file, the driver's host and port, this client's index, the
 * number of clients, the output file. Exit status 0 when every slot ran, 1 otherwise.
 */
public final class BenchClient {
  private BenchClient() {}

  /**
   * @param args see the class comment
   * @throws Exception when the client cannot run
   */
  public static void main(String[] args) throws Exception {
    BenchConfig config = new ObjectMapper().readValue(Path.of(args[0]).toFile(), BenchConfig.class);
    String host = args[1];
    int port = Integer.parseInt(args[2]);
    int me = Integer.parseInt(args[3]);
    int clients = Integer.parseInt(args[4]);
    Path out = Path.of(args[5]);
    SparkConf sc =
        new SparkConf(false)
            .set("spark.driver.host", host)
            .set("spark.driver.port", Integer.toString(port));
    for (Map.Entry<String, String> e : config.conf().entrySet()) {
      sc.set(e.getKey(), e.getValue());
    }
    RpcEnv env =
        RpcEnv$.MODULE$.create(
            "bench-client-" + me, host, 0, sc, BenchDriver.securityManager(sc), true);
    WanShuffleConf conf = WanShuffleConf.from(sc);
    CoordinatorChannel channel = new CoordinatorChannel(sc, env, conf);
    RpcEndpointRef bench = RpcUtils.makeDriverRef(BenchMessages.ENDPOINT, sc, env);
    StageSpec stage = new StageSpec(config);
    List<Integer> mine = new ArrayList<>();
    for (int s = 0; s < stage.slots(); s++) {
      if (stage.hostOfSlot(s) % clients == me) {
        mine.add(s);
      }
    }
    ScheduledExecutorService exec =
        Executors.newScheduledThreadPool(2, BenchDriver.daemon("bench-tasks"));
    FlowLog log = new FlowLog();
    int[] slots = mine.stream().mapToInt(Integer::intValue).toArray();
    RpcPort coordinator = new RpcPort(channel, bench);
    boolean ok = true;
    if (config.warmupTasks() > 0) {
      // not measured: its flows are dropped
      StageSpec warmup = new StageSpec(config.warmup());
      ready(bench, me, TaskSimulator.WARMUP_STAGE);
      TaskSimulator w =
          new TaskSimulator(
              warmup, slots, coordinator, exec, new FlowLog(), TaskSimulator.WARMUP_STAGE);
      w.start();
      try {
        w.done().get();
      } catch (Exception e) {
        ok = false;
      }
    }
    TaskSimulator sim =
        new TaskSimulator(stage, slots, coordinator, exec, log, TaskSimulator.STAGE);
    ready(bench, me, TaskSimulator.STAGE);
    sim.start();
    try {
      sim.done().get();
    } catch (Exception e) {
      ok = false;
      log.failure();
    }
    log.write(out);
    exec.shutdownNow();
    env.shutdown();
    System.exit(ok ? 0 : 1);
  }

  /** Tells the driver this client is ready for a stage; returns when every client is. */
  private static void ready(RpcEndpointRef bench, int me, int stageId) throws Exception {
    RpcTimeout wait =
        new RpcTimeout(FiniteDuration.apply(10, TimeUnit.MINUTES), "bench coordinator start");
    ScalaFutures.asJava(
            bench.ask(
                new BenchMessages.Ready(me, stageId), wait, ClassTag$.MODULE$.apply(Boolean.class)))
        .toCompletableFuture()
        .get();
  }
}
