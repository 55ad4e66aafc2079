package io.wanshuffle.spark.capture;

import io.wanshuffle.spark.topology.LinkModel;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stage's traffic on the links of its routes ({@link LinkModel}), for the capture's {@code
 * stage-*.links.csv} and {@code stage-*.step-links.csv}, the stage's {@link StageCapture} and its
 * {@link WanShuffleStageCaptured} event: per link its capacity in flows and rate, the bytes
 * registered and realised across it, its lower bound (registered bytes over its rate, in seconds:
 * no schedule moves the stage's bytes across it faster; the largest over the links bounds the
 * stage's transfer time), and the most flows any one step granted across it; per step the flows it
 * granted on every link; where each host sits (its site and rack, read off the links of its
 * routes); and the bytes over time on every side of the backbone and on the bottleneck link.
 *
 * @param links per link name, its figures, by name
 * @param stepLinks per step id, the flows it granted per link name
 * @param hostPaths per host of the stage's matrices, its network path: {@code /site/rack} when its
 *     routes cross a rack link, {@code /site} otherwise
 * @param series bytes over time of every backbone side the stage used and of its bottleneck link
 *     (the link of the largest lower bound), in link-name order
 */
public record LinkLoads(
    Map<String, LinkFigures> links,
    Map<Long, Map<String, Integer>> stepLinks,
    Map<String, String> hostPaths,
    List<LinkSeries> series) {

  /** Header of {@code stage-*.links.csv}. */
  public static final String LINKS_HEADER =
      "link,capacityFlows,rateBytesPerSecond,registeredBytes,realisedBytes,lowerBoundSeconds,"
          + "maxFlowsInAStep";

  /** Header of {@code stage-*.step-links.csv}. */
  public static final String STEP_LINKS_HEADER = "stepId,link,flows";

  /** Most bins of a {@link LinkSeries}. */
  static final int MAX_BINS = 120;

  /** Narrowest bin of a {@link LinkSeries}, ms. */
  static final long MIN_BIN_MS = 100;

  /** Copies the collections. */
  public LinkLoads {
    links = java.util.Collections.unmodifiableMap(new TreeMap<>(links));
    stepLinks = java.util.Collections.unmodifiableMap(new TreeMap<>(stepLinks));
    hostPaths = java.util.Collections.unmodifiableMap(new TreeMap<>(hostPaths));
    series = List.copyOf(series);
  }

  /**
   * Routes a stage's matrices, steps and flows over the links.
   *
   * @param model the links and capacities
   * @param cap the stage's capture (hosts, registered and realised matrices, steps, flows)
   * @return the stage's link loads
   * @throws io.wanshuffle.scheduler.topology.TopologyException for a host the topology does not
   *     know
   */
  public static LinkLoads of(LinkModel model, StageCapture cap) {
    Map<String, long[]> bytes = new TreeMap<>();
    Map<String, Integer> ids = new TreeMap<>();
    Map<String, String> paths = new TreeMap<>();
    List<String> hosts = cap.hosts();
    for (int i = 0; i < hosts.size(); i++) {
      for (int j = 0; j < hosts.size(); j++) {
        long reg = cap.registeredBytes()[i][j];
        long real = cap.realisedBytes()[i][j];
        if (reg == 0 && real == 0) {
          continue;
        }
        for (int l : model.route(hosts.get(i), hosts.get(j))) {
          String name = model.name(l);
          ids.put(name, l);
          long[] v = bytes.computeIfAbsent(name, x -> new long[2]);
          v[0] += reg;
          v[1] += real;
          locate(paths, name, hosts.get(i), hosts.get(j));
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
    Map<String, LinkFigures> links = new TreeMap<>();
    for (Map.Entry<String, Integer> e : ids.entrySet()) {
      int c = model.capacity(e.getValue());
      long[] v = bytes.getOrDefault(e.getKey(), new long[2]);
      links.put(
          e.getKey(),
          new LinkFigures(
              e.getKey(),
              c,
              c * model.baseSpeed(),
              v[0],
              v[1],
              maxFlows.getOrDefault(e.getKey(), 0)));
    }
    return new LinkLoads(links, stepLinks, paths, series(model, cap.flows(), links));
  }

  /**
   * Notes the site (and rack) of a route's hosts from one of its links' names.
   *
   * @param paths host to path, updated (a rack path replaces a site path)
   * @param link a link of the route from {@code src} to {@code dst}
   */
  private static void locate(Map<String, String> paths, String link, String src, String dst) {
    int open = link.indexOf('[');
    if (open < 0 || !link.endsWith("]")) {
      return;
    }
    String kind = link.substring(0, open);
    String where = link.substring(open + 1, link.length() - 1);
    switch (kind) {
      case "backbone.out" -> paths.putIfAbsent(src, where);
      case "backbone.in" -> paths.putIfAbsent(dst, where);
      case "rack.uplink" -> paths.put(src, where);
      case "rack.downlink" -> paths.put(dst, where);
      default -> {
        // NIC links name the host itself
      }
    }
  }

  /**
   * The bytes over time of the backbone sides and of the bottleneck link: each flow's bytes spread
   * evenly over {@code [startMs, endMs)} and added to every link of its route, in at most {@value
   * #MAX_BINS} bins of at least {@value #MIN_BIN_MS} ms.
   *
   * @param model the links
   * @param flows the stage's realised flows
   * @param links the stage's link figures, by name (the bottleneck is the largest lower bound)
   * @return one series per chosen link, by name; empty without flows
   */
  static List<LinkSeries> series(
      LinkModel model, List<FlowCapture> flows, Map<String, LinkFigures> links) {
    List<FlowCapture> timed = flows.stream().filter(f -> f.bytes() > 0 && f.startMs() > 0).toList();
    if (timed.isEmpty()) {
      return List.of();
    }
    long start = timed.stream().mapToLong(FlowCapture::startMs).min().orElseThrow();
    long end =
        timed.stream().mapToLong(f -> Math.max(f.endMs(), f.startMs() + 1)).max().orElseThrow();
    long span = Math.max(1, end - start);
    long bin = Math.max(MIN_BIN_MS, (span + MAX_BINS - 1) / MAX_BINS);
    int n = (int) Math.max(1, (span + bin - 1) / bin);
    Map<String, double[]> acc = new TreeMap<>();
    links.values().stream()
        .filter(l -> l.link().startsWith("backbone."))
        .forEach(l -> acc.put(l.link(), new double[n]));
    links.values().stream()
        .max(
            Comparator.comparingDouble(LinkFigures::lowerBoundSeconds)
                .thenComparing(LinkFigures::link, Comparator.reverseOrder()))
        .ifPresent(l -> acc.putIfAbsent(l.link(), new double[n]));
    for (FlowCapture f : timed) {
      double[][] targets =
          java.util.Arrays.stream(model.route(f.srcHost(), f.dstHost()))
              .mapToObj(l -> acc.get(model.name(l)))
              .filter(java.util.Objects::nonNull)
              .toArray(double[][]::new);
      if (targets.length == 0) {
        continue;
      }
      long s = f.startMs() - start;
      long e = Math.max(f.endMs(), f.startMs() + 1) - start;
      double perMs = (double) f.bytes() / (e - s);
      for (int b = (int) (s / bin); b < n && b * bin < e; b++) {
        long overlap = Math.min(e, (b + 1) * bin) - Math.max(s, b * bin);
        if (overlap > 0) {
          for (double[] t : targets) {
            t[b] += overlap * perMs;
          }
        }
      }
    }
    List<LinkSeries> out = new ArrayList<>();
    acc.forEach(
        (name, v) -> {
          long[] rounded = new long[n];
          for (int i = 0; i < n; i++) {
            rounded[i] = Math.round(v[i]);
          }
          out.add(new LinkSeries(name, links.get(name).rateBytesPerSecond(), start, bin, rounded));
        });
    return out;
  }

  /**
   * @return the figures of every link, by name
   */
  public List<LinkFigures> figures() {
    return List.copyOf(links.values());
  }

  /**
   * @param hosts hosts in matrix order
   * @return their paths ({@link #hostPaths()}), "" for a host no route located
   */
  public List<String> pathsOf(List<String> hosts) {
    return hosts.stream().map(h -> hostPaths.getOrDefault(h, "")).toList();
  }

  /**
   * Writes {@code stage-*.links.csv}: the header, then one row per link, by name.
   *
   * @param w where to write
   * @throws IOException on write errors
   */
  public void writeLinks(Writer w) throws IOException {
    w.write(LINKS_HEADER + "\n");
    for (LinkFigures l : links.values()) {
      w.write(
          String.format(
              Locale.ROOT,
              "%s,%d,%d,%d,%d,%.6f,%d%n",
              l.link(),
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
