package io.wanshuffle.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan --topology}: hosts from the matrix header, links from the topology. */
class PlanTopologyTest {
  @TempDir Path dir;
  private Path conf;
  private Path matrix;
  private static final List<String> SENDERS = List.of("a1", "a2", "a3", "a4");
  private static final List<String> RECEIVERS = List.of("b1", "b2", "b3");

  @BeforeEach
  void files() throws IOException {
    // cluster A: rack r1 = a1, a2, a3 with a 1-flow uplink; rack r2 = a4; backbone 3 flows
    Files.writeString(
        dir.resolve("racks.table"),
        "a1 /A/r1\na2 /A/r1\na3 /A/r1\na4 /A/r2\nb1 /B/r1\nb2 /B/r1\nb3 /B/r2\n");
    conf = dir.resolve("topology.conf");
    Files.writeString(
        conf,
        """
        mapping.table = racks.table
        nic.rate = 1M
        rack.uplink.rate = 2M
        rack.uplink.rate[/A/r1] = 1M
        rack.downlink.rate = 3M
        backbone.rate = 3M
        """);
    matrix = dir.resolve("m.csv");
    Files.writeString(
        matrix,
        "#senders: a1,a2,a3,a4\n#receivers: b1,b2,b3\n"
            + "4000000,1000000,0\n0,2000000,3000000\n1000000,0,1000000\n5000000,2000000,1000000\n");
  }

  @Test
  void liquidPlanRespectsTheRackUplink() throws IOException {
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0.5",
            "--algorithm",
            "liquid",
            "--format",
            "json");
    assertEquals(0, r.status(), r.err());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals("liquid", j.get("algorithm").asText());
    assertEquals(3, j.get("k").asInt());
    double[][] covered = new double[4][3];
    double cost = 0;
    for (JsonNode step : j.get("steps")) {
      Map<String, Integer> use = new HashMap<>();
      for (JsonNode t : step.get("transfers")) {
        int src = t.get("src").asInt();
        int dst = t.get("dst").asInt();
        covered[src][dst] += t.get("amount").asDouble();
        use.merge("up" + (src < 3 ? "r1" : "r2"), 1, Integer::sum);
        use.merge("nic" + src, 1, Integer::sum);
        use.merge("nicd" + dst, 1, Integer::sum);
        use.merge("bb", 1, Integer::sum);
      }
      assertTrue(use.getOrDefault("upr1", 0) <= 1, "rack /A/r1 uplink carries 1 flow: " + step);
      assertTrue(use.getOrDefault("upr2", 0) <= 2);
      assertTrue(use.get("bb") <= 3);
      use.forEach((k, v) -> assertTrue(!k.startsWith("nic") || v <= 1, k));
      cost += 0.5 + step.get("duration").asDouble();
    }
    // amounts are bytes at base speed 1 MB/s: seconds = bytes / 1e6
    double[][] want = {{4, 1, 0}, {0, 2, 3}, {1, 0, 1}, {5, 2, 1}};
    for (int i = 0; i < 4; i++) {
      for (int jj = 0; jj < 3; jj++) {
        assertEquals(want[i][jj], covered[i][jj], 1e-9);
      }
    }
    assertEquals(cost, j.get("cost").asDouble(), 1e-9);
    // rack /A/r1 sends 12 s over 6 pairs through a 1-flow uplink: the generalised bound
    assertEquals(12 + 0.5 * 6, j.get("lowerBound").asDouble(), 1e-9, r.out());
    assertTrue(j.get("cost").asDouble() >= j.get("lowerBound").asDouble() - 1e-9);
    // Spark's default on the same links: the 1-flow uplink of /A/r1 alone needs 12 s (a rack-blind
    // η_o sees only NICs and the backbone: b1's 10 s)
    double etaO = j.get("bruteForceEstimate").asDouble();
    assertTrue(etaO >= 12 - 1e-9 && etaO <= 20, r.out());
  }

  @Test
  void ratesWithoutACommonDivisorAreRefusedUnlessTheirHostCarriesNothing() throws IOException {
    // a4's NIC shares 1 B/s with the others
    Files.writeString(conf, Files.readString(conf) + "nic.rate[a4] = 999999\n");
    Files.writeString(
        matrix,
        "#senders: a1,a2,a3,a4\n#receivers: b1,b2,b3\n"
            + "4000000,1000000,0\n0,2000000,3000000\n1000000,0,1000000\n0,0,0\n");
    CliRun idle =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0.5",
            "--algorithm",
            "liquid",
            "--format",
            "json");
    assertEquals(0, idle.status(), idle.err());
    Files.writeString(
        matrix,
        "#senders: a1,a2,a3,a4\n#receivers: b1,b2,b3\n"
            + "4000000,1000000,0\n0,2000000,3000000\n1000000,0,1000000\n0,0,7\n");
    CliRun busy =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0.5",
            "--algorithm",
            "liquid");
    assertEquals(2, busy.status());
    assertEquals(1, busy.errLines().size(), busy.err());
    assertTrue(
        busy.err().contains("base speed 1 B/s") && busy.err().contains("round the rates in"),
        busy.err());
  }

  @Test
  void hostMissingFromTopologyIsBadInput() throws IOException {
    Files.writeString(matrix, "#senders: a1,zz\n#receivers: b1\n1\n1\n");
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0",
            "--algorithm",
            "liquid");
    assertEquals(2, r.status());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.err().contains("racks.table") && r.err().contains("'zz'"), r.err());
  }

  @Test
  void matrixWithoutHostsIsBadInput() throws IOException {
    Files.writeString(matrix, "1,2\n3,4\n");
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0",
            "--algorithm",
            "liquid");
    assertEquals(2, r.status());
    assertTrue(r.err().contains(matrix + ": line 1"), r.err());
  }

  @Test
  void unreadableTopologyFilesAreBadInputInWords() throws IOException {
    Path missing = dir.resolve("nope.conf");
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            missing.toString(),
            "--beta",
            "0",
            "--algorithm",
            "liquid");
    assertEquals(2, r.status());
    assertEquals(
        List.of("plan: " + missing + ": cannot read topology configuration: no such file"),
        r.errLines());
    Files.write(
        dir.resolve("racks.table"),
        new byte[] {'a', '1', ' ', '/', 'A', (byte) 0xff, (byte) 0xfe, '\n'});
    CliRun t =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0",
            "--algorithm",
            "liquid");
    assertEquals(2, t.status());
    assertEquals(1, t.errLines().size(), t.err());
    assertTrue(
        t.err().contains("racks.table: cannot read topology table: not UTF-8 text")
            && !t.err().contains("java."),
        t.err());
  }

  @Test
  void malformedTopologyLineIsBadInput() throws IOException {
    Files.writeString(conf, "mapping.table = racks.table\nnic.rate: 1M\n");
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0",
            "--algorithm",
            "liquid");
    assertEquals(2, r.status());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains(conf + ":2:"), r.err());
  }

  @Test
  void kAndRatesComeFromTheTopologyOnly() {
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0",
            "--k",
            "2",
            "--algorithm",
            "liquid");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("option --k"), r.err());
  }

  @Test
  void rackBlindAlgorithmGetsTheKpbsPlatform() throws IOException {
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            matrix.toString(),
            "--topology",
            conf.toString(),
            "--beta",
            "0.5",
            "--algorithm",
            "one-per-step",
            "--format",
            "json");
    assertEquals(0, r.status(), r.err());
    assertEquals(3, new ObjectMapper().readTree(r.out()).get("k").asInt());
  }

  /** Two clusters of one rack each, NICs and backbone of one flow (1 GB/s), no rack limit. */
  private Path flatOneFlowBackbone() throws IOException {
    Files.writeString(
        dir.resolve("flat.table"),
        "a1 /A/r1\na2 /A/r1\na3 /A/r1\na4 /A/r1\nb1 /B/r1\nb2 /B/r1\n" + "b3 /B/r1\n");
    Path flat = dir.resolve("flat.conf");
    Files.writeString(
        flat, "mapping.table = flat.table\nnic.rate = 1G\nrack.rate = none\nbackbone.rate = 1G\n");
    return flat;
  }

  private JsonNode planJson(Path m, Path topology, String algorithm) throws IOException {
    CliRun r =
        CliRun.of(
            "plan",
            "--matrix",
            m.toString(),
            "--topology",
            topology.toString(),
            "--beta",
            "0",
            "--algorithm",
            algorithm,
            "--format",
            "json");
    assertEquals(0, r.status(), r.err());
    return new ObjectMapper().readTree(r.out());
  }

  @Test
  void aBackboneSideThatNoTrafficCrossesDoesNotLimitTheSteps() throws IOException {
    Path flat = flatOneFlowBackbone();
    // traffic inside cluster A only: three disjoint pairs may run at once
    Files.writeString(
        matrix, "#senders: a1,a2,a3\n#receivers: a4,b1,b2\n" + "1000000000,0,0\n0,0,0\n0,0,0\n");
    Path inside = dir.resolve("inside.csv");
    Files.writeString(inside, "#senders: a1,a2\n#receivers: a3,a4\n1000000000,0\n0,1000000000\n");
    Path withIdle = dir.resolve("with-idle.csv");
    // the same plus a receiver on cluster B that receives nothing: its route's backbone sides carry
    // nothing
    Files.writeString(
        withIdle, "#senders: a1,a2\n#receivers: a3,a4,b1\n1000000000,0,0\n0,1000000000,0\n");
    for (String alg : List.of("liquid", "auto")) {
      JsonNode a = planJson(inside, flat, alg);
      JsonNode b = planJson(withIdle, flat, alg);
      assertEquals(2, a.get("k").asInt(), alg);
      assertEquals(
          a.get("k").asInt(), b.get("k").asInt(), alg + ": a host without traffic changed k");
      assertEquals(1.0, b.get("cost").asDouble(), 1e-9, alg + ": both pairs in one step of 1 s");
    }
  }

  @Test
  void liquidsLowerBoundCountsK() throws IOException {
    Path flat = flatOneFlowBackbone();
    // one way: a1->b1, a2->b2, a3->b3 cross a 1-flow backbone: k = 1, η = 3 s
    Path m = dir.resolve("cross.csv");
    Files.writeString(
        m,
        "#senders: a1,a2,a3\n#receivers: b1,b2,b3\n"
            + "1000000000,0,0\n0,1000000000,0\n0,0,1000000000\n");
    JsonNode j = planJson(m, flat, "liquid");
    assertEquals(1, j.get("k").asInt());
    assertEquals(3.0, j.get("lowerBound").asDouble(), 1e-9, "P / k");
    // one pair across the backbone and one inside cluster A: k = 1 (the backbone) bounds every
    // step, the
    // internal pair's too (KPBS), so the two pairs take two steps although no link is shared
    Path mixed = dir.resolve("mixed.csv");
    Files.writeString(mixed, "#senders: a1,a2\n#receivers: b1,a3\n1000000000,0\n0,1000000000\n");
    JsonNode i = planJson(mixed, flat, "liquid");
    JsonNode kpbs = planJson(mixed, flat, "auto");
    assertEquals(1, i.get("k").asInt());
    assertEquals(2.0, i.get("cost").asDouble(), 1e-9);
    assertEquals(2.0, i.get("lowerBound").asDouble(), 1e-9, "P / k, not the links' 1 s");
    assertEquals(
        kpbs.get("lowerBound").asDouble(),
        i.get("lowerBound").asDouble(),
        1e-9,
        "NICs and backbone only: the generalised bound is the KPBS η");
    assertTrue(i.get("cost").asDouble() >= i.get("lowerBound").asDouble());
  }

  /**
   * @return the transfers of a step of the two-way matrix below that go from cluster A (senders 0,
   *     1) to B
   */
  private static int aToBFlows(JsonNode step) {
    int n = 0;
    for (JsonNode t : step.get("transfers")) {
      n += t.get("src").asInt() < 2 ? 1 : 0;
    }
    return n;
  }

  @Test
  void rackBlindPlansCountTheLinksTheyOverloadAndLiquidKeepsThem() throws IOException {
    Path flat = flatOneFlowBackbone();
    // two transfers A -> B and one B -> A: k = 2 (one flow per backbone side), which a rack-blind
    // plan may spend
    // on one direction
    Path m = dir.resolve("two-way.csv");
    Files.writeString(
        m,
        "#senders: a1,a2,b1\n#receivers: b2,b3,a3\n"
            + "2000000000,0,0\n0,2000000000,0\n0,0,1000000000\n");
    JsonNode auto = planJson(m, flat, "auto");
    int overloads = auto.get("linkOverloads").asInt();
    int counted = 0;
    for (JsonNode step : auto.get("steps")) {
      counted += aToBFlows(step) > 1 ? 2 : 0; // cluster A's outgoing and cluster B's incoming side
    }
    assertEquals(counted, overloads, auto.toString());
    JsonNode liquid = planJson(m, flat, "liquid");
    assertEquals(0, liquid.get("linkOverloads").asInt());
    for (JsonNode step : liquid.get("steps")) {
      assertTrue(aToBFlows(step) <= 1, "one flow A -> B at a time: " + step);
    }
    CliRun text =
        CliRun.of(
            "plan",
            "--matrix",
            m.toString(),
            "--topology",
            flat.toString(),
            "--beta",
            "0",
            "--algorithm",
            "auto");
    assertEquals(
        overloads > 0,
        text.out().contains("links       " + overloads + " (step, link)"),
        text.out());
    CliRun noTopology =
        CliRun.of(
            "plan", "--matrix", matrix.toString(), "--k", "2", "--beta", "0", "--format", "json");
    assertEquals(0, noTopology.status(), noTopology.err());
    assertTrue(!noTopology.out().contains("linkOverloads"), "the field comes with --topology only");
  }
}
