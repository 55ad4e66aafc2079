package io.wanshuffle.bench.coordinator;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One configuration of {@code bench coordinator}: the simulated stage, the platform and how the
 * coordinator is reached. Hosts are named per site ({@code A}, {@code B}, ...), every site sends to
 * and receives from the others.
 *
 * @param mode {@code inprocess} (the coordinator's own API) or {@code rpc} (Spark's RPC on
 *     loopback, simulated tasks in client JVMs)
 * @param hosts hosts per site
 * @param sites sites (clusters), at least 2
 * @param racks racks per site; 1: the KPBS platform ({@code LinkModel.kpbs}), more: a generated
 *     topology file with rack links ({@code LinkModel.of})
 * @param tasks reduce tasks of the stage
 * @param running tasks running at once (task slots, spread over every host of every site)
 * @param blocks cross-site source hosts per task
 * @param skew Zipf exponent of the bytes of the stage's blocks (0: every block the same size)
 * @param k flows per side of the backbone (each site's outgoing and incoming side)
 * @param delta flows per NIC and direction (δ)
 * @param algorithm the coordinator's scheduler ({@code spark.wanshuffle.algorithm})
 * @param baseSpeed bytes/s of one flow (b)
 * @param blockMs mean time of one block at the base speed, ms (its mean bytes are b x blockMs)
 * @param jitter a flow takes its bytes / b times 1 + jitter x U[0, 1)
 * @param startDelayMs from a task's launch to its registration, ms
 * @param endDelayMs from a task's last byte to its end (its slot's next launch), ms
 * @param clients client JVMs in rpc mode
 * @param seed random seed of the stage and the flows
 * @param warmupTasks reduce tasks of a warm-up stage run first in the same JVMs, not measured (0:
 *     none)
 * @param conf further {@code spark.wanshuffle.*} keys for the coordinator
 */
record BenchConfig(
    String mode,
    int hosts,
    int sites,
    int racks,
    int tasks,
    int running,
    int blocks,
    double skew,
    int k,
    int delta,
    String algorithm,
    long baseSpeed,
    double blockMs,
    double jitter,
    long startDelayMs,
    long endDelayMs,
    int clients,
    long seed,
    int warmupTasks,
    Map<String, String> conf)
    implements Serializable {

  /** In-process mode. */
  static final String INPROCESS = "inprocess";

  /** RPC mode. */
  static final String RPC = "rpc";

  BenchConfig {
    conf = new LinkedHashMap<>(conf);
  }

  /**
   * @return the warm-up stage's configuration: this one with {@link #warmupTasks} tasks, another
   *     seed and no warm-up of its own
   */
  BenchConfig warmup() {
    return new BenchConfig(
        mode,
        hosts,
        sites,
        racks,
        warmupTasks,
        running,
        blocks,
        skew,
        k,
        delta,
        algorithm,
        baseSpeed,
        blockMs,
        jitter,
        startDelayMs,
        endDelayMs,
        clients,
        seed + 1,
        0,
        conf);
  }

  /**
   * @return a short label of the configuration, e.g. {@code inprocess 100+100 hosts r1 T5000 R200
   *     B3 z0 k10 auto}
   */
  String label() {
    StringBuilder b = new StringBuilder(mode).append(' ');
    for (int s = 0; s < sites; s++) {
      b.append(s == 0 ? "" : "+").append(hosts);
    }
    return b.append(" hosts")
        .append(racks > 1 ? ", " + racks + " racks/site" : "")
        .append(", T ")
        .append(tasks)
        .append(", R ")
        .append(running)
        .append(", B ")
        .append(blocks)
        .append(", Z ")
        .append(skew)
        .append(", k ")
        .append(k)
        .append(", ")
        .append(algorithm)
        .toString();
  }
}
