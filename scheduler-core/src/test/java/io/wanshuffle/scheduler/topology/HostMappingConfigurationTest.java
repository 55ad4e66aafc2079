package io.wanshuffle.scheduler.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public factory the Spark plugin uses: the mapping from Hadoop configuration keys. */
class HostMappingConfigurationTest {
  @TempDir Path dir;

  /** A mapping class named through net.topology.node.switch.mapping.impl. */
  public static final class EverythingInEast implements DNSToSwitchMapping {
    @Override
    public List<String> resolve(List<String> names) {
      List<String> r = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        r.add("/east/r1");
      }
      return r;
    }

    @Override
    public void reloadCachedMappings() {}

    @Override
    public void reloadCachedMappings(List<String> names) {}
  }

  private Path table(String content) throws IOException {
    return Files.writeString(dir.resolve("hosts.table"), content);
  }

  @Test
  void tableKeyGivesPathsAndClusters() throws IOException {
    Configuration c = new Configuration(true); // with core-default.xml, as Spark builds it
    c.set("net.topology.table.file.name", table("10.1.0.1 /dcA/r1\n10.2.0.1 /dcB\n").toString());
    HostMapping m = HostMapping.fromHadoopConfiguration(c);
    assertEquals(Optional.of("/dcA/r1"), m.pathOf("10.1.0.1"));
    assertEquals(Optional.of("/dcB"), m.pathOf("10.2.0.1"), "one level is a cluster");
    assertEquals(Optional.empty(), m.pathOf("10.9.9.9"), "unknown host: Hadoop's default rack");
    assertEquals("dcA", HostMapping.clusterOf("/dcA/r1"));
    assertEquals("dcB", HostMapping.clusterOf("/dcB"));
    assertThrows(IllegalArgumentException.class, () -> HostMapping.clusterOf("dcB"));
  }

  @Test
  void aTableMayListHostsByNameOrByAddress() throws IOException {
    // localhost resolves to 127.0.0.1, which Hadoop's own TableMapping would look up instead of
    // the name; 127.0.0.2 is listed by address and named by it
    Configuration c = new Configuration(true);
    c.set(
        "net.topology.table.file.name",
        table("localhost /dcA/r1\nnot-in-dns.invalid /dcB/r2\n127.0.0.2 /dcB/r1\n").toString());
    HostMapping m = HostMapping.fromHadoopConfiguration(c);
    assertEquals(
        List.of("/dcA/r1", "/dcB/r2", "/dcB/r1"),
        m.resolve(List.of("localhost", "not-in-dns.invalid", "127.0.0.2")));
    assertEquals(Optional.of("/dcA/r1"), m.pathOf("localhost"));
    assertEquals(Optional.empty(), m.pathOf("unlisted.invalid"));
    TopologyException e =
        assertThrows(
            TopologyException.class, () -> m.resolve(List.of("localhost", "unlisted.invalid")));
    assertTrue(
        e.getMessage().contains("'unlisted.invalid' is not in the topology"), e.getMessage());
  }

  @Test
  void explicitImplOverridesTheTableButTheDefaultXmlDoesNot() throws IOException {
    Configuration c = new Configuration(true);
    c.set("net.topology.table.file.name", table("10.1.0.1 /dcA/r1\n").toString());
    assertEquals(
        Optional.of("/dcA/r1"),
        HostMapping.fromHadoopConfiguration(c).pathOf("10.1.0.1"),
        "core-default.xml names ScriptBasedMapping; that must not hide the table");
    c.set("net.topology.node.switch.mapping.impl", EverythingInEast.class.getName());
    assertEquals(
        Optional.of("/east/r1"), HostMapping.fromHadoopConfiguration(c).pathOf("10.1.0.1"));
  }

  @Test
  void withoutAnyTopologyKeyEveryHostIsUnknownAndTheMappingSaysSo() throws IOException {
    HostMapping none = HostMapping.fromHadoopConfiguration(new Configuration(true));
    assertFalse(none.isConfigured(), "core-default.xml's script key is blank: no topology");
    assertEquals(Optional.empty(), none.pathOf("10.1.0.1"));
    Configuration t = new Configuration(true);
    t.set("net.topology.table.file.name", table("10.1.0.1 /dcA/r1\n").toString());
    assertTrue(HostMapping.fromHadoopConfiguration(t).isConfigured());
    Configuration i = new Configuration(true);
    i.set("net.topology.node.switch.mapping.impl", EverythingInEast.class.getName());
    assertTrue(HostMapping.fromHadoopConfiguration(i).isConfigured(), "a mapping class");
  }

  @Test
  void badInputNamesTheKeyTheFileAndTheLine() throws IOException {
    Configuration c = new Configuration(false);
    Path t = table("# hosts\n10.1.0.1 /dcA/r1\n10.2.0.1 dcB\n");
    c.set("net.topology.table.file.name", t.toString());
    TopologyException e =
        assertThrows(TopologyException.class, () -> HostMapping.fromHadoopConfiguration(c));
    assertEquals("net.topology.table.file.name", e.configKey());
    assertTrue(
        e.getMessage().startsWith(t + ":3: host 10.2.0.1: network path 'dcB'"), e.getMessage());

    c.set("net.topology.table.file.name", dir.resolve("missing.table").toString());
    e = assertThrows(TopologyException.class, () -> HostMapping.fromHadoopConfiguration(c));
    assertEquals("net.topology.table.file.name", e.configKey());

    Configuration s = new Configuration(false);
    s.set(
        "net.topology.script.file.name",
        Files.writeString(dir.resolve("t.sh"), "#!/bin/sh\n").toString());
    e = assertThrows(TopologyException.class, () -> HostMapping.fromHadoopConfiguration(s));
    assertEquals("net.topology.script.file.name", e.configKey());

    Configuration i = new Configuration(false);
    i.set("net.topology.node.switch.mapping.impl", "no.such.Mapping");
    e = assertThrows(TopologyException.class, () -> HostMapping.fromHadoopConfiguration(i));
    assertEquals("net.topology.node.switch.mapping.impl", e.configKey());
  }

  /**
   * Settings that would leave every host unknown (nothing gated) without a word are refused, naming
   * the key.
   */
  @Test
  void aTopologyThatMapsNothingIsRefusedNamingTheKey() throws IOException {
    for (String content : new String[] {"", "# only a comment\n\n"}) {
      Configuration c = new Configuration(false);
      c.set("net.topology.table.file.name", table(content).toString());
      TopologyException e =
          assertThrows(TopologyException.class, () -> HostMapping.fromHadoopConfiguration(c));
      assertEquals("net.topology.table.file.name", e.configKey());
      assertTrue(
          e.getMessage().endsWith("topology table maps no host (empty or comments only)"),
          e.getMessage());
    }
    for (String script : new String[] {" ", dir.toString()}) {
      Configuration c = new Configuration(false);
      c.set("net.topology.script.file.name", script);
      TopologyException e =
          assertThrows(TopologyException.class, () -> HostMapping.fromHadoopConfiguration(c));
      assertEquals("net.topology.script.file.name", e.configKey(), e.getMessage());
    }
  }

  @Test
  void withoutKeysEveryHostIsUnknown() {
    HostMapping m = HostMapping.fromHadoopConfiguration(new Configuration(true));
    assertEquals(Optional.empty(), m.pathOf("anything"));
  }
}
