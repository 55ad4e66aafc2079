package io.wanshuffle.bench.coordinator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The simulated stage of one {@link BenchConfig}, the same in every JVM that builds it from the
 * same configuration: the hosts of every site and their racks, the task slots, and per reduce task
 * its receiving host and its bytes per cross-site source host.
 *
 * <p>Hosts: {@code hA0 .. hA<n-1>} on site {@code A}, {@code hB0 ..} on {@code B} and so on; host i
 * of a site is in rack {@code i * racks / hosts}. Slots: {@code running} slots, slot r on host r
 * mod (sites x hosts); task t runs in slot t mod running, after the slot's earlier tasks, and
 * prefers the slot's host. Sources: {@code blocks} distinct hosts of the other sites, drawn per
 * task. Bytes: every (task, source) block gets the weight 1 / rank^skew, the ranks 1 .. tasks x
 * blocks in a random order (Zipf; skew 0: equal blocks), scaled so that the mean block is b x
 * blockMs / 1000 bytes.
 */
final class StageSpec {
  /** One reduce task: its receiving host and bytes per source host (indices into hosts()). */
  record Task(int id, int dst, int[] src, long[] bytes) {}

  private final BenchConfig config;
  private final String[] hosts;
  private final int[] siteOf;
  private final int[] rackOf;
  private final Map<String, Integer> index = new HashMap<>();
  private final Task[] tasks;

  /**
   * @param config the configuration
   * @throws IllegalArgumentException if the sizes are out of range
   */
  StageSpec(BenchConfig config) {
    this.config = config;
    int sites = config.sites();
    int perSite = config.hosts();
    if (sites < 2 || perSite < 1 || config.racks() < 1 || config.racks() > perSite) {
      throw new IllegalArgumentException(
          "need at least 2 sites, 1 host per site and 1..hosts racks per site");
    }
    if (config.tasks() < 1 || config.running() < 1 || config.blocks() < 1) {
      throw new IllegalArgumentException("tasks, running and blocks must be at least 1");
    }
    int n = sites * perSite;
    hosts = new String[n];
    siteOf = new int[n];
    rackOf = new int[n];
    for (int s = 0; s < sites; s++) {
      for (int i = 0; i < perSite; i++) {
        int h = s * perSite + i;
        hosts[h] = "h" + siteName(s) + i;
        siteOf[h] = s;
        rackOf[h] = i * config.racks() / perSite;
        index.put(hosts[h], h);
      }
    }
    int blocks = Math.min(config.blocks(), (sites - 1) * perSite);
    SplittableRandom rnd = new SplittableRandom(config.seed());
    double[] weights = zipfWeights(config.tasks() * blocks, config.skew(), rnd.split());
    double meanBytes = config.baseSpeed() * config.blockMs() / 1000.0;
    tasks = new Task[config.tasks()];
    int slots = config.running();
    for (int t = 0; t < tasks.length; t++) {
      int dst = (t % slots) % n;
      int[] src = new int[blocks];
      long[] bytes = new long[blocks];
      SplittableRandom r = rnd.split();
      int others = n - perSite;
      int[] pool = new int[others];
      int p = 0;
      for (int h = 0; h < n; h++) {
        if (siteOf[h] != siteOf[dst]) {
          pool[p++] = h;
        }
      }
      for (int b = 0; b < blocks; b++) {
        int pick = b + r.nextInt(others - b); // partial Fisher-Yates: distinct sources
        int x = pool[b];
        pool[b] = pool[pick];
        pool[pick] = x;
        src[b] = pool[b];
        bytes[b] = Math.max(1, Math.round(meanBytes * weights[t * blocks + b]));
      }
      tasks[t] = new Task(t, dst, src, bytes);
    }
  }

  /**
   * @return weights with mean 1: 1 / rank^skew for the ranks 1..n in a random order
   */
  private static double[] zipfWeights(int n, double skew, SplittableRandom rnd) {
    double[] w = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      w[i] = Math.pow(i + 1, -skew);
      sum += w[i];
    }
    double mean = sum / n;
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      double x = w[i];
      w[i] = w[j];
      w[j] = x;
    }
    for (int i = 0; i < n; i++) {
      w[i] /= mean;
    }
    return w;
  }

  /**
   * @param s a site index
   * @return its name: A, B, .., Z, then S26, S27, ..
   */
  static String siteName(int s) {
    return s < 26 ? String.valueOf((char) ('A' + s)) : "S" + s;
  }

  /**
   * @return the configuration
   */
  BenchConfig config() {
    return config;
  }

  /**
   * @return every host, site by site (shared: do not modify)
   */
  String[] hosts() {
    return hosts;
  }

  /**
   * @param host a host name
   * @return its index in {@link #hosts()}
   */
  int indexOf(String host) {
    return index.get(host);
  }

  /**
   * @param h a host index
   * @return its site index
   */
  int siteOf(int h) {
    return siteOf[h];
  }

  /**
   * @param h a host index
   * @return its rack index within its site
   */
  int rackOf(int h) {
    return rackOf[h];
  }

  /**
   * @return every task, by id (shared: do not modify)
   */
  Task[] tasks() {
    return tasks;
  }

  /**
   * @return the task slots (the running tasks at once)
   */
  int slots() {
    return config.running();
  }

  /**
   * @param slot a slot
   * @return the host index the slot runs on
   */
  int hostOfSlot(int slot) {
    return slot % hosts.length;
  }

  /**
   * @param slot a slot
   * @return the ids of the tasks the slot runs, in order
   */
  int[] tasksOfSlot(int slot) {
    int count = slot < tasks.length ? (tasks.length - 1 - slot) / slots() + 1 : 0;
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      out[i] = slot + i * slots();
    }
    return out;
  }

  /**
   * @return per task, its preferred host (its slot's), as the driver listener reports a submitted
   *     stage
   */
  List<List<String>> preferredHosts() {
    List<List<String>> out = new ArrayList<>(tasks.length);
    for (Task t : tasks) {
      out.add(List.of(hosts[t.dst()]));
    }
    return out;
  }

  /**
   * @return the whole stage's bytes
   */
  long totalBytes() {
    return Arrays.stream(tasks).flatMapToLong(t -> Arrays.stream(t.bytes())).sum();
  }

  /**
   * @return the racks' table, {@code host /site/rack} per line (Hadoop's TableMapping format)
   */
  String topologyTable() {
    StringBuilder b = new StringBuilder();
    for (int h = 0; h < hosts.length; h++) {
      b.append(hosts[h])
          .append(" /")
          .append(siteName(siteOf[h]))
          .append("/r")
          .append(rackOf[h])
          .append('\n');
    }
    return b.toString();
  }
}
