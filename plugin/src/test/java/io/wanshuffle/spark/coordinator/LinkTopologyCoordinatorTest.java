package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import io.wanshuffle.scheduler.topology.Topology;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.assemble.StandingPlan;
import io.wanshuffle.spark.coordinator.demand.TestDemands;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.GrantReply.Status;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The coordinator on random multi-site topologies with racks (2-4 sites, 1-3 racks per site, rack
 * links and backbone sides of different rates): at every instant no link carries more granted flows
 * than its capacity (NICs, rack uplinks and downlinks, each site's backbone sides), every
 * registered byte is granted and realised, and every plan is a valid KPBS schedule of its residual.
 */
class LinkTopologyCoordinatorTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"auto", "liquid", "oggp", GreedyFirstStep.NAME})
  void noLinkEverCarriesMoreFlowsThanItsCapacityAndEveryByteIsRealised(String algorithm)
      throws IOException {
    randomTopologies(algorithm, 0);
  }

  /**
   * The same with a planner whose rounds run 1 ms after they were asked for and {@code
   * planning.replanWait = 0}: ports freed while it plans take the last plan's next transfers
   * ({@link StandingPlan}), and still no link carries more than its capacity at any instant.
   */
  @ParameterizedTest
  @ValueSource(strings = {"auto", "liquid", "oggp", GreedyFirstStep.NAME})
  void grantsFromTheLastPlanWhileThePlannerIsBusyHoldEveryLinkAndRealiseEveryByte(String algorithm)
      throws IOException {
    randomTopologies(algorithm, 1);
  }

  /**
   * One application among several ({@link FakeShare}: a random share of every link's window, NICs
   * included, as an arbiter would hand out; 0 on some links until the other applications leave
   * them): at every instant no link carries more granted flows than this application's share of it,
   * every byte is still realised once every share is at least 1 flow, and the demand published
   * names the NIC links too (the arbiter splits a host's δ between the applications reading on it).
   */
  @ParameterizedTest
  @ValueSource(strings = {"auto", "liquid", "oggp", GreedyFirstStep.NAME})
  void withAShareOfEveryLinkNoLinkCarriesMoreThanItsShare(String algorithm) throws IOException {
    randomTopologies(algorithm, 0, true);
    randomTopologies(algorithm, 1, true); // grants from the last plan while the planner is busy
  }

  /**
   * Random rounds of topologies and demands.
   *
   * @param planLagMs 0: the planner runs at once; above 0: its rounds run that many ms of the timer
   *     after they were asked for, with {@code planning.replanWait = 0}
   */
  private void randomTopologies(String algorithm, long planLagMs) throws IOException {
    randomTopologies(algorithm, planLagMs, false);
  }

  /**
   * @param shared whether an arbiter's share (random, at least 1 flow) caps every link
   */
  private void randomTopologies(String algorithm, long planLagMs, boolean shared)
      throws IOException {
    Random rnd = new Random(7);
    for (int round = 0; round < 12; round++) {
      int sites = 2 + rnd.nextInt(3);
      int racks = 1 + rnd.nextInt(3);
      int perRack = 1 + rnd.nextInt(2);
      StringBuilder table = new StringBuilder();
      StringBuilder conf = new StringBuilder("mapping.table = t" + round + ".table\n");
      conf.append("nic.rate = ").append(100 * (1 + rnd.nextInt(2))).append('\n');
      conf.append("rack.rate = 100\n");
      List<String> hosts = new ArrayList<>();
      Map<String, String> site = new HashMap<>();
      for (int s = 0; s < sites; s++) {
        String name = String.valueOf((char) ('A' + s));
        conf.append("backbone.out.rate[/")
            .append(name)
            .append("] = ")
            .append(100 * (1 + rnd.nextInt(4)))
            .append('\n');
        conf.append("backbone.in.rate[/")
            .append(name)
            .append("] = ")
            .append(100 * (1 + rnd.nextInt(4)))
            .append('\n');
        for (int r = 0; r < racks; r++) {
          if (rnd.nextBoolean()) {
            conf.append("rack.uplink.rate[/")
                .append(name)
                .append("/r")
                .append(r)
                .append("] = 200\n");
          }
          for (int h = 0; h < perRack; h++) {
            String host = name.toLowerCase() + r + h;
            hosts.add(host);
            site.put(host, name);
            table.append(host).append(" /").append(name).append("/r").append(r).append('\n');
          }
        }
      }
      Files.writeString(dir.resolve("t" + round + ".table"), table);
      Path file = dir.resolve("t" + round + ".conf");
      Files.writeString(file, conf);
      LinkModel links = LinkModel.of(Topology.load(file), "test");
      runRound(algorithm, links, hosts, site, rnd, planLagMs, shared);
    }
  }

  private static void runRound(
      String algorithm,
      LinkModel links,
      List<String> hosts,
      Map<String, String> site,
      Random rnd,
      long planLagMs,
      boolean shared) {
    RecordingListener ev = new RecordingListener();
    PlanValidator validator = new PlanValidator();
    ManualTimer t = new ManualTimer();
    SparkConf sc =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), algorithm)
            .set(Settings.STEP_MIN_DEADLINE.key(), "1s")
            .set(Settings.PLANNING_BUDGET.key(), "0")
            .set(Settings.BETA.key(), "0ms");
    if (planLagMs > 0) {
      sc.set(Settings.REPLAN_WAIT.key(), "0");
    }
    WanShuffleConf conf = WanShuffleConf.from(sc, Set.of(algorithm));
    StepCoordinatorBuilder builder = StepCoordinator.builder(conf);
    if (planLagMs > 0) {
      builder.planner(r -> t.schedule(r, planLagMs));
    }
    StepCoordinator c =
        builder
            .scheduler(
                algorithm.equals(GreedyFirstStep.NAME)
                    ? new GreedyFirstStep()
                    : Algorithms.byName(algorithm))
            .listeners(List.of(ev, validator))
            .timer(t)
            .clock(t::now)
            .clusters(site::get)
            .links(links)
            .build();
    for (String a : hosts) {
      for (String b : hosts) {
        links.route(a, b); // the model names a route's links when it is first asked for
      }
    }
    int[] limit = new int[links.linkCount()];
    FakeShare share = new FakeShare();
    for (int l = 0; l < limit.length; l++) {
      limit[l] = links.capacity(l);
      if (shared && rnd.nextBoolean()) {
        limit[l] = rnd.nextInt(limit[l] + 1); // 0: the other applications hold the link
        share.shares.put(links.name(l), limit[l]);
      }
    }
    if (shared) {
      c.shareBackbone(share);
    }
    Map<Long, RegisterDemand> regs = new HashMap<>();
    Map<Long, long[]> rem = new HashMap<>();
    Map<Long, CompletableFuture<GrantReply>> polls = new HashMap<>();
    long total = 0;
    int tasks = 3 + rnd.nextInt(10);
    for (int task = 0; task < tasks; task++) {
      String dst = hosts.get(rnd.nextInt(hosts.size()));
      List<Object> sb = new ArrayList<>();
      for (String src : hosts) {
        if (!site.get(src).equals(site.get(dst)) && rnd.nextInt(3) > 0) {
          long b = 1 + rnd.nextInt(2000);
          sb.add(src);
          sb.add(b);
          total += b;
        }
      }
      if (sb.isEmpty()) {
        continue;
      }
      RegisterDemand d = TestDemands.register(task, dst, sb.toArray());
      long id = c.register(d).demandId();
      regs.put(id, d);
      rem.put(id, d.bytes().clone());
      polls.put(id, c.awaitGrant(AwaitGrant.poll(id)));
    }
    t.advance(200);
    Map<Long, GrantReply> holding = new HashMap<>();
    int guard = 0;
    while (!polls.isEmpty() || !holding.isEmpty()) {
      assertTrue(++guard < 20_000, "no progress");
      for (Map.Entry<Long, CompletableFuture<GrantReply>> e : new ArrayList<>(polls.entrySet())) {
        if (e.getValue().isDone()) {
          GrantReply g = e.getValue().join();
          polls.remove(e.getKey());
          if (g.status() == Status.GRANT) {
            holding.put(e.getKey(), g);
          } else {
            assertEquals(Status.FINISHED, g.status());
          }
        }
      }
      checkLinks(holding, regs, links, limit);
      if (shared && guard == 1) {
        // the other applications leave the links they held whole: at least 1 flow on each
        for (int l = 0; l < limit.length; l++) {
          if (limit[l] == 0) {
            limit[l] = 1;
            share.shares.put(links.name(l), 1);
          }
        }
        share.onChange.run();
      }
      if (holding.isEmpty()) {
        t.advance(1000);
        continue;
      }
      if (rnd.nextInt(6) == 0) {
        t.advance(5000); // a deadline passes while receivers lag
        continue;
      }
      List<Long> ids = new ArrayList<>(holding.keySet());
      long id = ids.get(rnd.nextInt(ids.size()));
      GrantReply g = holding.remove(id);
      polls.put(id, c.awaitGrant(FlowSimulation.reportOf(id, regs.get(id), g, rem.get(id))));
    }
    assertEquals(0, c.openFlowCount());
    long realised = 0;
    for (TransferRecord r : ev.transfers) {
      for (long b : r.bytes()) {
        realised += b;
      }
    }
    assertEquals(total, realised, "every registered byte was granted and realised");
    assertEquals(List.of(), validator.invalid, algorithm + " produced an invalid plan");
    if (shared && total > 0) {
      assertTrue(
          share.published.stream()
              .anyMatch(m -> m.keySet().stream().anyMatch(n -> n.startsWith("nic.down["))),
          "the demand on the receivers' NICs is published: " + share.published);
    }
  }

  /**
   * The distinct host pairs the holders fetch hold every link of their routes, at most {@code
   * limit} flows per link id (its capacity, or this application's share of it).
   */
  private static void checkLinks(
      Map<Long, GrantReply> holding, Map<Long, RegisterDemand> regs, LinkModel links, int[] limit) {
    Set<List<String>> pairs = new HashSet<>();
    for (Map.Entry<Long, GrantReply> e : holding.entrySet()) {
      for (String s : e.getValue().srcHosts()) {
        pairs.add(List.of(s, regs.get(e.getKey()).dstHost()));
      }
    }
    Map<Integer, Integer> used = new HashMap<>();
    for (List<String> p : pairs) {
      for (int l : links.route(p.get(0), p.get(1))) {
        used.merge(l, 1, Integer::sum);
      }
    }
    for (Map.Entry<Integer, Integer> e : used.entrySet()) {
      assertTrue(
          e.getValue() <= limit[e.getKey()],
          links.name(e.getKey())
              + " carries "
              + e.getValue()
              + " flows, capacity "
              + links.capacity(e.getKey())
              + ", allowed "
              + limit[e.getKey()]
              + ": "
              + pairs);
    }
  }
}
