package io.wanshuffle.it.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.spark.ClusterOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ConcurrentOptionsTest {
  @Command(name = "cmd")
  static final class Cmd {
    @Mixin ConcurrentOptions concurrency;
  }

  private static ConcurrentOptions parse(String... args) {
    Cmd c = new Cmd();
    new CommandLine(c).parseArgs(args);
    return c.concurrency;
  }

  private static void check(ConcurrentOptions o, boolean standalone) {
    o.check(new CommandLine(new Cmd()), standalone);
  }

  @Test
  void byDefaultOneApplicationWithoutArbiterAsBefore() {
    ConcurrentOptions o = parse();
    check(o, false);
    assertEquals(1, o.apps());
    assertFalse(o.active());
    assertEquals("", o.commandLine());
    ClusterOptions base = ClusterOptions.defaults().withWorkerCores(2);
    assertEquals(base, o.cluster(base, "640m"));
    assertEquals(Map.of(), o.appConf(4, 2, true, null));
    assertEquals("auto-1", o.appName("auto-1", 0));
    assertEquals(null, o.startArbiter(null, null), "no server without --arbiter zookeeper");
  }

  @Test
  void copiesGetOneExecutorPerHostEachOnWorkersSizedForAll() {
    ConcurrentOptions o = parse("--concurrent", "3", "--arbiter", "zookeeper");
    check(o, true);
    assertTrue(o.active() && o.zooKeeper());
    assertEquals(" --concurrent 3 --arbiter zookeeper", o.commandLine());
    ClusterOptions c = o.cluster(ClusterOptions.defaults().withWorkerCores(2), "640m");
    assertEquals(6, c.workerCores());
    assertEquals("1920m", c.workerMemory());
    assertEquals(
        "2048m",
        o.cluster(ClusterOptions.defaults().withWorkerMemory("2g"), "100m").workerMemory(),
        "never below the base's memory");
    assertEquals(
        Map.of("spark.executor.cores", "2", "spark.cores.max", "8"), o.appConf(4, 2, false, null));
    assertEquals("auto-1-app2", o.appName("auto-1", 1));
  }

  @Test
  void outOfRangeValuesAndYarnAreUsageErrors() {
    assertThrows(
        CommandLine.ParameterException.class, () -> check(parse("--concurrent", "0"), true));
    assertThrows(
        CommandLine.ParameterException.class, () -> check(parse("--concurrent", "9"), true));
    assertThrows(
        CommandLine.ParameterException.class, () -> check(parse("--arbiter", "etcd"), true));
    assertThrows(
        CommandLine.ParameterException.class, () -> check(parse("--concurrent", "2"), false));
    assertThrows(
        CommandLine.ParameterException.class, () -> check(parse("--arbiter", "zookeeper"), false));
  }
}
