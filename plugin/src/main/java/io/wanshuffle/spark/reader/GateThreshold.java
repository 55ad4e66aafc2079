package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.topology.LinkModel;

/**
 * An executor's {@code gate.minBytes=auto} threshold ({@link WanShuffleConf#gateMinBytes(int, int,
 * long)}) on the link model the driver's coordinator plans with: each registration answer carries
 * the coordinator's base speed and the registering host's δ as a receiver ({@link Registered}), and
 * later reads of the executor take the latest. Before the first answer the executor's own link
 * model (the configured, start or topology-file rates) stands in. So with {@code auto} rates, once
 * the driver switched to the measured rates, the executors gate the reads a run configured with
 * those rates gates. β stays the executor's (the configured one, or the start value with {@code
 * beta=auto}): the threshold's setup cost includes the registration and polls of a gated read,
 * which the measured β (grant to rate) leaves out.
 *
 * <p>Thread-safe: tasks read and answers write it concurrently.
 */
final class GateThreshold {
  /** The coordinator's base speed (bytes/s) and δ of this executor's host, as last answered. */
  private record DriverLinks(long baseSpeed, int receiverPorts) {}

  private volatile DriverLinks driver;

  /**
   * Takes the coordinator's link model from a registration answer, when it carries one.
   *
   * @param r the answer
   */
  void learn(Registered r) {
    if (r.baseSpeed() > 0 && r.receiverPorts() > 0) {
      driver = new DriverLinks(r.baseSpeed(), r.receiverPorts());
    }
  }

  /**
   * @param conf the plugin's configuration ({@code gate.minBytes}, β)
   * @param sourceHosts distinct cross-cluster hosts the read fetches from, at least 1
   * @param links the executor's link model, used until the coordinator answered a registration
   * @param host the reading task's host
   * @return the bytes below which the read is not gated
   */
  long minBytes(WanShuffleConf conf, int sourceHosts, LinkModel links, String host) {
    DriverLinks d = driver;
    return d != null
        ? conf.gateMinBytes(sourceHosts, d.receiverPorts(), d.baseSpeed())
        : conf.gateMinBytes(sourceHosts, links.receivePorts(host), links.baseSpeed());
  }
}
