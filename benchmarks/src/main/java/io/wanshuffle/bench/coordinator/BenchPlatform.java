package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.topology.ClusterTopology;
import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.SparkConf;

/**
 * The platform of one {@link StageSpec}: the coordinator's configuration and link model, and the
 * harness's own view of the same links, from which it checks the flows it saw and computes the
 * stage's lower bound independently of the coordinator.
 *
 * <p>One rack per site: the KPBS platform of the rate keys ({@code LinkModel.flat}: k flows on each
 * site's side of the backbone each way, δ per NIC; {@code spark.wanshuffle.k} and {@code delta}
 * set). More racks: a generated topology file ({@code spark.wanshuffle.topology.file}, read with
 * {@link ClusterTopology}): NICs of δ flows, each site's backbone sides of k flows and each rack's
 * uplink and downlink of max(1, ceil(2k / racks)) flows, so that the racks of a site together carry
 * twice the backbone and a rack binds only when the traffic leans on it.
 *
 * <p>Links of a flow from host s to host d (another site), with their ids here: {@code nic.up[s]}
 * (s), {@code nic.down[d]} (n + d), {@code backbone.out[site(s)]} (2n + site), {@code
 * backbone.in[site(d)]} (2n + sites + site), and with racks {@code rack.uplink} (2n + 2 sites +
 * site x racks + rack) and {@code rack.downlink} (after the uplinks).
 */
final class BenchPlatform {
  private final StageSpec stage;
  private final WanShuffleConf conf;
  private final LinkModel links;
  private final Function<String, String> clusterOf;
  private final int n;
  private final int sites;
  private final int racks;
  private final int rackFlows;

  private BenchPlatform(
      StageSpec stage, WanShuffleConf conf, LinkModel links, Function<String, String> clusterOf) {
    this.stage = stage;
    this.conf = conf;
    this.links = links;
    this.clusterOf = clusterOf;
    BenchConfig c = stage.config();
    this.n = stage.hosts().length;
    this.sites = c.sites();
    this.racks = c.racks();
    this.rackFlows = Math.max(1, (2 * c.k() + racks - 1) / racks);
  }

  /**
   * The Spark configuration of the coordinator: the configuration's algorithm and further keys, and
   * the platform's rates (k, δ and the backbone rate, or the topology file). Windows stay at the
   * links' capacities unless {@code --conf} says otherwise: the harness's flows run at the rates
   * its simulator gives them, with no link sharing for a window to measure, and its invariant is
   * every link within its capacity at every instant.
   *
   * @param stage the stage
   * @param dir where a topology file is written (racks > 1)
   * @return the configuration
   * @throws IOException if the topology file cannot be written
   */
  static SparkConf sparkConf(StageSpec stage, Path dir) throws IOException {
    BenchConfig c = stage.config();
    SparkConf s =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), c.algorithm())
            .set(Settings.WINDOW.key(), Settings.CAPACITY);
    long b = c.baseSpeed();
    if (c.racks() > 1) {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("stage.table"), stage.topologyTable());
      int rackFlows = Math.max(1, (2 * c.k() + c.racks() - 1) / c.racks());
      String topo =
          "mapping.table = stage.table\n"
              + "nic.rate = "
              + b * c.delta()
              + "\nbackbone.rate = "
              + b * c.k()
              + "\nrack.rate = "
              + b * rackFlows
              + "\n";
      Path file = dir.resolve("stage.topology");
      Files.writeString(file, topo);
      s.set(Settings.TOPOLOGY_FILE.key(), file.toAbsolutePath().toString());
    } else {
      s.set(Settings.K.key(), Integer.toString(c.k()))
          .set(Settings.DELTA.key(), Integer.toString(c.delta()))
          .set(Settings.BACKBONE_RATE.key(), Long.toString(b * c.k()))
          .set(Settings.NIC_RATE.key(), Long.toString(b * c.delta()));
    }
    for (Map.Entry<String, String> e : c.conf().entrySet()) {
      s.set(e.getKey(), e.getValue());
    }
    return s;
  }

  /**
   * @param stage the stage
   * @param dir where a topology file is written (racks > 1)
   * @return the platform
   * @throws IOException if the topology file cannot be written
   */
  static BenchPlatform of(StageSpec stage, Path dir) throws IOException {
    SparkConf s = sparkConf(stage, dir);
    WanShuffleConf conf = WanShuffleConf.from(s);
    if (stage.config().racks() > 1) {
      ClusterTopology t = ClusterTopology.from(s);
      return new BenchPlatform(stage, conf, t.links(conf), h -> t.clusterOf(h).orElse(""));
    }
    Function<String, String> site = h -> StageSpec.siteName(stage.siteOf(stage.indexOf(h)));
    return new BenchPlatform(stage, conf, LinkModel.flat(conf, site), site);
  }

  /**
   * @return the coordinator's validated configuration
   */
  WanShuffleConf conf() {
    return conf;
  }

  /**
   * @return the coordinator's link model
   */
  LinkModel links() {
    return links;
  }

  /**
   * @return the cluster (site) of a host
   */
  Function<String, String> clusterOf() {
    return clusterOf;
  }

  /**
   * @return how many links the harness's view has
   */
  int linkCount() {
    return 2 * n + 2 * sites + (racks > 1 ? 2 * sites * racks : 0);
  }

  /**
   * @param src sending host index
   * @param dst receiving host index, on another site
   * @return the harness's link ids of the route
   */
  int[] route(int src, int dst) {
    int ss = stage.siteOf(src);
    int ds = stage.siteOf(dst);
    if (racks > 1) {
      int up = 2 * n + 2 * sites;
      int down = up + sites * racks;
      return new int[] {
        src,
        up + ss * racks + stage.rackOf(src),
        2 * n + ss,
        2 * n + sites + ds,
        down + ds * racks + stage.rackOf(dst),
        n + dst
      };
    }
    return new int[] {src, 2 * n + ss, 2 * n + sites + ds, n + dst};
  }

  /**
   * @param link a link id of {@link #route}
   * @return the flows it carries at once
   */
  int capacity(int link) {
    int k = stage.config().k();
    if (link < 2 * n) {
      return Math.min(k, stage.config().delta());
    }
    if (link < 2 * n + 2 * sites) {
      return k;
    }
    return rackFlows;
  }

  /**
   * @param link a link id of {@link #route}
   * @return its name, as the topology documentation spells it
   */
  String linkName(int link) {
    String[] h = stage.hosts();
    if (link < n) {
      return "nic.up[" + h[link] + "]";
    }
    if (link < 2 * n) {
      return "nic.down[" + h[link - n] + "]";
    }
    int l = link - 2 * n;
    if (l < sites) {
      return "backbone.out[/" + StageSpec.siteName(l) + "]";
    }
    l -= sites;
    if (l < sites) {
      return "backbone.in[/" + StageSpec.siteName(l) + "]";
    }
    l -= sites;
    String kind = l < sites * racks ? "rack.uplink" : "rack.downlink";
    l %= sites * racks;
    return kind + "[/" + StageSpec.siteName(l / racks) + "/r" + l % racks + "]";
  }

  /**
   * The stage's lower bound: no link moves more than its capacity times the base speed, and a host
   * pair is granted at most once at a time, so its blocks take at least their bytes / b. The η
   * bound of the KPBS papers, max(W(G), P(G) / k) (Cohen, Jeannot, Padoy, Wagner, sec. 5), taken
   * over every link of the routes (liquid-schedules paper, Gabrielyan and Hersch, sec. 3), with β =
   * 0.
   *
   * @return seconds
   */
  double lowerBoundSeconds() {
    double[] bytes = new double[linkCount()];
    Map<Long, Double> pairs = new HashMap<>();
    for (StageSpec.Task t : stage.tasks()) {
      for (int i = 0; i < t.src().length; i++) {
        for (int l : route(t.src()[i], t.dst())) {
          bytes[l] += t.bytes()[i];
        }
        pairs.merge((long) t.src()[i] * n + t.dst(), (double) t.bytes()[i], Double::sum);
      }
    }
    double longest = pairs.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double b = stage.config().baseSpeed();
    double bound = longest / b;
    for (int l = 0; l < bytes.length; l++) {
      bound = Math.max(bound, bytes[l] / (capacity(l) * b));
    }
    return bound;
  }
}
