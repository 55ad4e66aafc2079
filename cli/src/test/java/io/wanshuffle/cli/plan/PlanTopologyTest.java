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
    Files.writeString(dir.resolve("racks.table"),
        "a1 /A/r1\na2 /A/r1\na3 /A/r1\na4 /A/r2\nb1 /B/r1\nb2 /B/r1\nb3 /B/r2\n");
    conf = dir.resolve("topology.conf");
    Files.writeString(conf, """
        mapping.table = racks.table
        nic.rate = 1M
        rack.uplink.rate = 2M
        rack.uplink.rate[/A/r1] = 1M
        rack.downlink.rate = 3M
        backbone.rate = 3M
        """);
    matrix = dir.resolve("m.csv");
    Files.writeString(matrix, "#senders: a1,a2,a3,a4\n#receivers: b1,b2,b3\n"
        + "4000000,1000000,0\n0,2000000,3000000\n1000000,0,1000000\n5000000,2000000,1000000\n");
  }

  @Test
  void liquidPlanRespectsTheRackUplink() throws IOException {
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0.5", "--algorithm", "liquid", "--format", "json");
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
  }

  @Test
  void ratesWithoutACommonDivisorAreRefusedUnlessTheirHostCarriesNothing() throws IOException {
    // a4's NIC shares 1 B/s with the others
    Files.writeString(conf, Files.readString(conf) + "nic.rate[a4] = 999999\n");
    Files.writeString(matrix, "#senders: a1,a2,a3,a4\n#receivers: b1,b2,b3\n"
        + "4000000,1000000,0\n0,2000000,3000000\n1000000,0,1000000\n0,0,0\n");
    CliRun idle = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0.5", "--algorithm", "liquid", "--format", "json");
    assertEquals(0, idle.status(), idle.err());
    Files.writeString(matrix, "#senders: a1,a2,a3,a4\n#receivers: b1,b2,b3\n"
        + "4000000,1000000,0\n0,2000000,3000000\n1000000,0,1000000\n0,0,7\n");
    CliRun busy = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0.5", "--algorithm", "liquid");
    assertEquals(2, busy.status());
    assertEquals(1, busy.errLines().size(), busy.err());
    assertTrue(busy.err().contains("base speed 1 B/s") && busy.err().contains("round the rates in"), busy.err());
  }

  @Test
  void hostMissingFromTopologyIsBadInput() throws IOException {
    Files.writeString(matrix, "#senders: a1,zz\n#receivers: b1\n1\n1\n");
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0", "--algorithm", "liquid");
    assertEquals(2, r.status());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.err().contains("racks.table") && r.err().contains("'zz'"), r.err());
  }

  @Test
  void matrixWithoutHostsIsBadInput() throws IOException {
    Files.writeString(matrix, "1,2\n3,4\n");
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0", "--algorithm", "liquid");
    assertEquals(2, r.status());
    assertTrue(r.err().contains(matrix + ": line 1"), r.err());
  }

  @Test
  void unreadableTopologyFilesAreBadInputInWords() throws IOException {
    Path missing = dir.resolve("nope.conf");
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", missing.toString(),
        "--beta", "0", "--algorithm", "liquid");
    assertEquals(2, r.status());
    assertEquals(List.of("plan: " + missing + ": cannot read topology configuration: no such file"), r.errLines());
    Files.write(dir.resolve("racks.table"), new byte[] {'a', '1', ' ', '/', 'A', (byte) 0xff, (byte) 0xfe, '\n'});
    CliRun t = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0", "--algorithm", "liquid");
    assertEquals(2, t.status());
    assertEquals(1, t.errLines().size(), t.err());
    assertTrue(t.err().contains("racks.table: cannot read topology table: not UTF-8 text")
        && !t.err().contains("java."), t.err());
  }

  @Test
  void malformedTopologyLineIsBadInput() throws IOException {
    Files.writeString(conf, "mapping.table = racks.table\nnic.rate: 1M\n");
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0", "--algorithm", "liquid");
    assertEquals(2, r.status());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains(conf + ":2:"), r.err());
  }

  @Test
  void kAndRatesComeFromTheTopologyOnly() {
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0", "--k", "2", "--algorithm", "liquid");
    assertEquals(2, r.status());
    assertTrue(r.err().contains("option --k"), r.err());
  }

  @Test
  void rackBlindAlgorithmGetsTheKpbsPlatform() throws IOException {
    CliRun r = CliRun.of("plan", "--matrix", matrix.toString(), "--topology", conf.toString(),
        "--beta", "0.5", "--algorithm", "one-per-step", "--format", "json");
    assertEquals(0, r.status(), r.err());
    assertEquals(3, new ObjectMapper().readTree(r.out()).get("k").asInt());
  }
}
