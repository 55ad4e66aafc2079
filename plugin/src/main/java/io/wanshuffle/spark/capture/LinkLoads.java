package io.wanshuffle.spark.capture;

import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stage's traffic on the links of its routes ({@link LinkModel}), for the capture's {@code
 * stage-*.links.csv} and {@code stage-*.step-links.csv}: per link its capacity in flows and rate,
 * the bytes registered and realised across it, its lower bound (registered bytes over its rate, in
 * seconds: no schedule moves the stage's bytes across it faster; the largest over the links bounds
 * the stage's transfer time), and the most flows any one step granted across it; and per step the
 * flows it granted on every link.
 *
 * @param links per link name, its figures, by name
 * @param stepLinks per step id, the flows it granted per link name
 */
public record LinkLoads(Map<String, LinkLoad> links, Map<Long, Map<String, Integer>> stepLinks) {

  /** Header of {@code stage-*.links.csv}. */
  public static final String LINKS_HEADER =
      "link,capacityFlows,rateBytesPerSecond,registeredBytes,realisedBytes,lowerBoundSeconds,"
          + "maxFlowsInAStep";

  /** Header of {@code stage-*.step-links.csv}. */
  public static final String STEP_LINKS_HEADER = "stepId,link,flows";

  /**
   * One link's figures in a stage.
   *
   * @param capacityFlows flows it carries at once
   * @param rateBytesPerSecond its rate: capacity x base speed, bytes/s
   * @param registeredBytes bytes registered across it
   * @param realisedBytes bytes fetched across it
   * @param maxFlowsInAStep most flows one step granted across it
   */
  public record LinkLoad(
      int capacityFlows,
      long rateBytesPerSecond,
      long registeredBytes,
      long realisedBytes,
      int maxFlowsInAStep) {
    /**
     * @return registered bytes over the rate, seconds
     */
    public double lowerBoundSeconds() {
      return rateBytesPerSecond <= 0 ? 0 : (double) registeredBytes / rateBytesPerSecond;
    }
  }

  /**
   * Routes a stage's matrices and steps over the links.
   *
   * @param model the links and capacities
   * @param cap the stage's capture (hosts, registered and realised matrices, steps)
   * @return the stage's link loads
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a host the topology does not
   *     know
   */
  public static LinkLoads of(LinkModel model, StageCapture cap) {
    Map<String, long[]> bytes = new TreeMap<>();
    Map<String, Integer> ids = new TreeMap<>();
    List<String> hosts = cap.hosts();
    for (int i = 0; i < hosts.size(); i++) {
      for (int j = 0; j < hosts.size(); j++) {
        long reg = cap.registeredBytes()[i][j];
        long real = cap.realisedBytes()[i][j];
        if (reg == 0 && real == 0) {
          continue;
        }
        for (int l : model.route(hosts.get(i), hosts.get(j))) {
          ids.put(model.name(l), l);
          long[] v = bytes.computeIfAbsent(model.name(l), x -> new long[2]);
          v[0] += reg;
          v[1] += real;
        }
      }
    }
    Map<Long, Map<String, Integer>> stepLinks = new TreeMap<>();
    Map<String, Integer> maxFlows = new TreeMap<>();
    for (StepCapture s : cap.steps()) {
      Map<String, Integer> flows = new TreeMap<>();
      for (StepCapture.Grant g : s.flows()) {
        for (int l : model.route(g.srcHost(), g.dstHost())) {
          ids.put(model.name(l), l);
          flows.merge(model.name(l), 1, Integer::sum);
        }
      }
      stepLinks.put(s.stepId(), flows);
      flows.forEach((name, n) -> maxFlows.merge(name, n, Math::max));
    }
    Map<String, LinkLoad> links = new TreeMap<>();
    for (Map.Entry<String, Integer> e : ids.entrySet()) {
      int c = model.capacity(e.getValue());
      long[] v = bytes.getOrDefault(e.getKey(), new long[2]);
      links.put(
          e.getKey(),
          new LinkLoad(c, c * model.baseSpeed(), v[0], v[1], maxFlows.getOrDefault(e.getKey(), 0)));
    }
    return new LinkLoads(links, stepLinks);
  }

  /**
   * Writes {@code stage-*.links.csv}: the header, then one row per link, by name.
   *
   * @param w where to write
   * @throws IOException on write errors
   */
  public void writeLinks(Writer w) throws IOException {
    w.write(LINKS_HEADER + "\n");
    for (Map.Entry<String, LinkLoad> e : links.entrySet()) {
      LinkLoad l = e.getValue();
      w.write(
          String.format(
              Locale.ROOT,
              "%s,%d,%d,%d,%d,%.6f,%d%n",
              e.getKey(),
              l.capacityFlows(),
              l.rateBytesPerSecond(),
              l.registeredBytes(),
              l.realisedBytes(),
              l.lowerBoundSeconds(),
              l.maxFlowsInAStep()));
    }
  }

  /**
   * Writes {@code stage-*.step-links.csv}: the header, then one row per step and link it used.
   *
   * @param w where to write
   * @throws IOException on write errors
   */
  public void writeStepLinks(Writer w) throws IOException {
    w.write(STEP_LINKS_HEADER + "\n");
    for (Map.Entry<Long, Map<String, Integer>> s : stepLinks.entrySet()) {
      for (Map.Entry<String, Integer> l : s.getValue().entrySet()) {
        w.write(s.getKey() + "," + l.getKey() + "," + l.getValue() + "\n");
      }
    }
  }
}
