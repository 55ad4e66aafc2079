package io.wanshuffle.bench.coordinator;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.spark.coordinator.CoordinatorEndpoint;
import io.wanshuffle.spark.coordinator.StepCoordinator;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.plan.PlanningLoop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SecurityManager;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.RpcEnv$;

/**
 * Runs one configuration against a real {@link StepCoordinator}, with its planner thread, timers
 * and wall clock as on the driver:
 *
 * <ul>
 *   <li>{@code inprocess}: the simulated tasks ({@link TaskSimulator}) call the coordinator's API
 *       in this JVM ({@link InProcessPort});
 *   <li>{@code rpc}: this JVM is the driver, a Spark {@code RpcEnv} on loopback with the plugin's
 *       {@link CoordinatorEndpoint}; {@code clients} client JVMs ({@link BenchClient}) each
 *       simulate the task slots of a share of the hosts and reach the coordinator through the
 *       plugin's executor-side {@code CoordinatorChannel}.
 * </ul>
 *
 * A run that makes no progress for {@code stallSeconds} is stopped and reported as it stands (its
 * contract then fails).
 */
final class BenchDriver {
  private final Path dir;
  private final long timeoutSeconds;

  /**
   * @param dir the run's folder (topology files, client logs, the driver's log)
   * @param timeoutSeconds longest run, s
   */
  BenchDriver(Path dir, long timeoutSeconds) {
    this.dir = dir;
    this.timeoutSeconds = timeoutSeconds;
  }

  /**
   * @param config the configuration
   * @return its figures
   * @throws IOException if a file of the run cannot be written or read
   * @throws InterruptedException if interrupted
   */
  BenchResult run(BenchConfig config) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    new SparkConf(false); // Spark sets up its logging once; the run's file replaces it
    DriverLog.to(dir.resolve("driver.log"));
    StageSpec stage = new StageSpec(config);
    BenchPlatform platform = BenchPlatform.of(stage, dir);
    return config.mode().equals(BenchConfig.RPC)
        ? rpc(stage, platform)
        : inProcess(stage, platform);
  }

  private static StepCoordinator coordinator(
      BenchPlatform platform, DriverProbe probe, ExecutorService planner) {
    return StepCoordinator.builder(platform.conf())
        .configuredScheduler()
        .listeners(List.of(probe))
        .timer(CoordinatorTimer.daemon("wan-shuffle-coordinator"))
        .clock(System::currentTimeMillis)
        .planner(planner)
        .clusters(platform.clusterOf())
        .links(platform.links())
        .build();
  }

  private BenchResult inProcess(StageSpec stage, BenchPlatform platform)
      throws InterruptedException {
    String load0 = load();
    DriverProbe probe = new DriverProbe();
    ExecutorService planner = PlanningLoop.thread("wan-shuffle-planner");
    StepCoordinator c = coordinator(platform, probe, planner);
    CoordinatorTimer pollTimer = CoordinatorTimer.daemon("wan-shuffle-poll");
    InProcessPort port = new InProcessPort(c, pollTimer);
    ScheduledExecutorService exec = Executors.newScheduledThreadPool(2, daemon("bench-tasks"));
    int[] slots = new int[stage.slots()];
    for (int s = 0; s < slots.length; s++) {
      slots[s] = s;
    }
    if (stage.config().warmupTasks() > 0) {
      // not measured: its log is dropped, the probe and the CPU counters start after it
      runStage(
          c,
          new StageSpec(stage.config().warmup()),
          slots,
          port,
          exec,
          new FlowLog(),
          TaskSimulator.WARMUP_STAGE);
      probe.clear();
    }
    probe.watchHeap();
    FlowLog log = new FlowLog();
    long cpu0 = DriverProbe.threadCpuNanos("wan-shuffle");
    long portCpu0 = port.cpuNanos();
    runStage(c, stage, slots, port, exec, log, TaskSimulator.STAGE);
    long cpu = DriverProbe.threadCpuNanos("wan-shuffle") - cpu0 + port.cpuNanos() - portCpu0;
    c.stop();
    planner.shutdownNow();
    pollTimer.shutdown();
    exec.shutdownNow();
    probe.stopWatching();
    return RunAnalysis.result(stage, platform, log, probe, cpu, load0 + " / " + load());
  }

  /**
   * Runs one stage in-process, from its submission to its completion.
   *
   * @param id {@link TaskSimulator#STAGE} or {@link TaskSimulator#WARMUP_STAGE}
   */
  private void runStage(
      StepCoordinator c,
      StageSpec stage,
      int[] slots,
      CoordinatorPort port,
      ScheduledExecutorService exec,
      FlowLog log,
      int id)
      throws InterruptedException {
    c.stageSubmitted(id, 0, stage.preferredHosts());
    TaskSimulator sim = new TaskSimulator(stage, slots, port, exec, log, id);
    sim.start();
    try {
      sim.done().get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      log.failure();
    }
    c.stageCompleted(id, 0);
  }

  private BenchResult rpc(StageSpec stage, BenchPlatform platform)
      throws IOException, InterruptedException {
    BenchConfig config = stage.config();
    String load0 = load();
    DriverProbe probe = new DriverProbe();
    SparkConf sc = new SparkConf(false);
    RpcEnv env =
        RpcEnv$.MODULE$.create("bench-driver", "127.0.0.1", 0, sc, securityManager(sc), false);
    ExecutorService planner = PlanningLoop.thread("wan-shuffle-planner");
    StepCoordinator c = coordinator(platform, probe, planner);
    StageSpec warmup = config.warmupTasks() > 0 ? new StageSpec(config.warmup()) : null;
    BenchEndpoint bench = new BenchEndpoint(env, c, stage, warmup, probe::clear, config.clients());
    env.setupEndpoint(
        CoordinatorEndpoint.NAME,
        new CoordinatorEndpoint(env, c, CoordinatorTimer.daemon("wan-shuffle-poll")));
    env.setupEndpoint(BenchMessages.ENDPOINT, bench);
    Path configFile = dir.resolve("config.json");
    new ObjectMapper().writeValue(configFile.toFile(), config);
    List<Process> clients = new ArrayList<>();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    for (int i = 0; i < config.clients(); i++) {
      List<String> cmd =
          List.of(
              java,
              "-Xmx1g",
              "-cp",
              System.getProperty("java.class.path"),
              BenchClient.class.getName(),
              configFile.toString(),
              "127.0.0.1",
              Integer.toString(env.address().port()),
              Integer.toString(i),
              Integer.toString(config.clients()),
              dir.resolve("client-" + i + ".flows").toString());
      clients.add(
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("client-" + i + ".log").toFile())
              .start());
    }
    long cpu0 = 0;
    boolean startedOk;
    try {
      // the clients' start, and the warm-up stage when there is one
      bench.started().get(120 + (config.warmupTasks() > 0 ? timeoutSeconds : 0), TimeUnit.SECONDS);
      startedOk = true;
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      startedOk = false;
    }
    cpu0 = DriverProbe.processCpuNanos();
    probe.watchHeap();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    for (Process p : clients) {
      long left = Math.max(1, deadline - System.nanoTime());
      if (!startedOk || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
        p.destroyForcibly();
      }
    }
    c.stageCompleted(TaskSimulator.STAGE, 0);
    long cpu = DriverProbe.processCpuNanos() - cpu0;
    probe.stopWatching();
    env.shutdown();
    env.awaitTermination();
    c.stop();
    planner.shutdownNow();
    FlowLog log = new FlowLog();
    for (int i = 0; i < config.clients(); i++) {
      Path f = dir.resolve("client-" + i + ".flows");
      if (Files.exists(f)) {
        log.addAll(FlowLog.read(f));
      } else {
        log.failure();
      }
    }
    return RunAnalysis.result(stage, platform, log, probe, cpu, load0 + " / " + load());
  }

  /**
   * @param conf a Spark configuration
   * @return Spark's security manager of it (no authentication unless the configuration sets it)
   */
  static SecurityManager securityManager(SparkConf conf) {
    return new SecurityManager(
        conf,
        SecurityManager.$lessinit$greater$default$2(),
        SecurityManager.$lessinit$greater$default$3());
  }

  static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * @return the 1, 5 and 15 minute load averages, or "unknown"
   */
  static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
