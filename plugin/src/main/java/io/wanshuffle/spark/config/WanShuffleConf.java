package io.wanshuffle.spark.config;

import io.wanshuffle.scheduler.alg.Algorithms;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validated configuration of wan-shuffle: every key lives under {@value #PREFIX}, is declared
 * once in {@link Settings} (type, bounds, default, documentation) and is read once, at start-up,
 * from the {@link SparkConf}. A wrong value fails fast with a {@link ConfigValueException} naming
 * the key and the value; a key under {@value #PREFIX} that no setting declares is logged as a
 * warning. All keys, defaults and units are listed in {@code docs/configuration.md}, generated from
 * the declarations.
 *
 * <p>k, δ and the base speed follow the base-speed rule of the DGGP paper (Jeannot and Wagner, sec.
 * 2.2-2.3; {@link PlatformRates}): base speed b = gcd(backbone rate, NIC rates), k = backbone / b,
 * δ(h) = min(k, NIC(h) / b). Setting {@value #K} (and optionally {@value #DELTA}) overrides the
 * rule; b is then backbone / k.
 *
 * <p>{@value #BETA}, {@value #K}, {@value #BACKBONE_RATE} and {@value #NIC_RATE} default to {@value
 * #AUTO}: with nothing typed, β and the rates start from conservative values ({@link
 * #AUTO_BETA_START_SECONDS}; NICs at 100 Mbit/s, the backbone at 10 NICs) and the driver's
 * coordinator replaces them, and the k and δ derived from them, by measured ones. A value set
 * explicitly is used as configured: a number for k is never replaced, and a rate set explicitly
 * stays in the rule while the unset one is measured.
 *
 * <p>Instances are immutable; build one per JVM with {@link #from}.
 */
public final class WanShuffleConf {
  private static final Logger LOG = LoggerFactory.getLogger(WanShuffleConf.class);

  /** Prefix of every key. */
  public static final String PREFIX = "spark.wanshuffle.";

  /**
   * Most flows k or δ may count (scheduler-core's limit). Classes outside this package read it here
   * rather than from scheduler-core: an inlined scheduler-core constant leaves a class reference
   * that the shaded jar does not relocate.
   */
  public static final int MAX_FLOWS = PlatformRates.MAX_FLOWS;

  /** Key of {@link Settings#ALGORITHM}: the step scheduler, or {@value #NONE}. */
  public static final String ALGORITHM = PREFIX + "algorithm";

  /** Key of {@link Settings#TOPOLOGY_FILE}. */
  public static final String TOPOLOGY_FILE = PREFIX + "topology.file";

  /** Key of {@link Settings#BACKBONE_RATE}. */
  public static final String BACKBONE_RATE = PREFIX + "backbone.rate";

  /** Key of {@link Settings#NIC_RATE}. */
  public static final String NIC_RATE = PREFIX + "nic.rate";

  /** Key of {@link Settings#NIC_RATES}: {@code host=rate,host=rate}. */
  public static final String NIC_RATES = PREFIX + "nic.rates";

  /** Key of {@link Settings#K}. */
  public static final String K = PREFIX + "k";

  /** Key of {@link Settings#DELTA}. */
  public static final String DELTA = PREFIX + "delta";

  /** Key of {@link Settings#BETA}. */
  public static final String BETA = PREFIX + "beta";

  /** Key of {@link Settings#FLOW_RATE_CAP} (experimental). */
  public static final String FLOW_RATE_CAP = PREFIX + "flow.rateCap";

  /** Key of {@link Settings#STEP_DEADLINE_FACTOR}. */
  public static final String STEP_DEADLINE_FACTOR = PREFIX + "step.deadlineFactor";

  /** Key of {@link Settings#STEP_MIN_DEADLINE}. */
  public static final String STEP_MIN_DEADLINE = PREFIX + "step.minDeadline";

  /** Key of {@link Settings#STEP_MODE}: {@value #PIPELINED} or {@value #BARRIER} (experimental). */
  public static final String STEP_MODE = PREFIX + "step.mode";

  /** {@value #STEP_MODE} value: a flow's ports carry the next transfer as soon as it ends. */
  public static final String PIPELINED = "pipelined";

  /** {@value #STEP_MODE} value: the papers' KPBS steps, separated by barriers. */
  public static final String BARRIER = "barrier";

  /**
   * Key of {@link Settings#STEP_HANDOVER}: {@value #PREDICTED} or {@value #ARRIVAL} (experimental).
   */
  public static final String STEP_HANDOVER = PREFIX + "step.handover";

  /** {@value #STEP_HANDOVER} value: report a step when its end is near, as predicted. */
  public static final String PREDICTED = "predicted";

  /** {@value #STEP_HANDOVER} value: report a step when its last block arrived. */
  public static final String ARRIVAL = "arrival";

  /** Key of {@link Settings#STEP_PROGRESS} (experimental). */
  public static final String STEP_PROGRESS = PREFIX + "step.progress";

  /** Key of {@link Settings#GATHER_WINDOW}. */
  public static final String GATHER_WINDOW = PREFIX + "coordinator.gatherWindow";

  /** Key of {@link Settings#ASK_TIMEOUT}. */
  public static final String ASK_TIMEOUT = PREFIX + "coordinator.askTimeout";

  /** Key of {@link Settings#POLL_INTERVAL}. */
  public static final String POLL_INTERVAL = PREFIX + "grant.pollInterval";

  /** Key of {@link Settings#MAX_GRANT_WAIT}. */
  public static final String MAX_GRANT_WAIT = PREFIX + "grant.maxWait";

  /** Key of {@link Settings#PLANNING_BUDGET}. */
  public static final String PLANNING_BUDGET = PREFIX + "planning.budget";

  /** Key of {@link Settings#REPLAN_WAIT}. */
  public static final String REPLAN_WAIT = PREFIX + "planning.replanWait";

  /** Key of {@link Settings#PLANNING_SHARE} (experimental). */
  public static final String PLANNING_SHARE = PREFIX + "planning.share";

  /** Key of {@link Settings#PLANNING_FALLBACK} (experimental). */
  public static final String PLANNING_FALLBACK = PREFIX + "planning.fallback";

  /** Default of {@value #PLANNING_FALLBACK}: the greedy first step built into the plugin. */
  public static final String GREEDY_FALLBACK = "greedy";

  /**
   * Key of {@link Settings#GATE_MIN_BYTES}: a size, or {@value #AUTO} for the threshold of {@link
   * #gateMinBytes(int, String)}.
   */
  public static final String GATE_MIN_BYTES = PREFIX + "gate.minBytes";

  /** Key of {@link Settings#GATE_MARGIN}: a fraction in [0, 1], or {@code off}. */
  public static final String GATE_MARGIN = PREFIX + "gate.margin";

  /**
   * The value of {@value #GATE_MIN_BYTES} that derives the threshold per read from β and the rates.
   */
  public static final String AUTO = "auto";

  /**
   * β, seconds, a coordinator plans with while {@value #BETA} is {@code auto} and fewer than {@link
   * #AUTO_MIN_FLOWS} gated flows were measured: 50 ms, above a LAN round trip and the grant delays
   * measured on loopback.
   */
  public static final double AUTO_BETA_START_SECONDS = 0.05;

  /**
   * Least β, seconds, a coordinator plans with while {@value #BETA} is {@code auto}: a measured β
   * below it is not adopted (this value is planned with instead). 50 ms, the start value. Plans on
   * a smaller β cut a pair's bytes into more steps: on a network as fast as its round trip (β of a
   * few ms) the schedulers split blocks of a few hundred ms, every piece a grant, a poll answer and
   * a step report on the driver, for no measured gain in the stage's makespan
   * (docs/benchmarks/coordinator-scale.md, "β auto on a driver that ran a stage before"). A β set
   * explicitly is planned with as configured, however small.
   */
  public static final double AUTO_BETA_FLOOR_SECONDS = AUTO_BETA_START_SECONDS;

  /**
   * Fewest measured flows (gated flows for β) before an {@code auto} β or k is replaced by the
   * measured one: 20, enough for the medians of {@link
   * io.wanshuffle.spark.measure.NetworkEstimator} to be stable against a few slow flows.
   */
  public static final int AUTO_MIN_FLOWS = 20;

  /**
   * With {@value #GATE_MIN_BYTES} = {@value #AUTO}, a read is gated when the setup delays of its
   * steps are at most 1 / this of the read's time in them: its bytes at the base speed are at least
   * this many times (steps x β).
   */
  static final int AUTO_SETUP_SHARE_INVERSE = 4;

  /** Key of {@link Settings#LISTENERS}: comma-separated {@code CoordinatorListener} classes. */
  public static final String LISTENERS = PREFIX + "listeners";

  /** Key of {@link Settings#CAPTURE_DIR}. */
  public static final String CAPTURE_DIR = PREFIX + "capture.dir";

  /** Key of {@link Settings#CAPTURE_EVENTS}. */
  public static final String CAPTURE_EVENTS = PREFIX + "capture.events";

  /** Key of {@link Settings#CAPTURE_METRICS}. */
  public static final String CAPTURE_METRICS = PREFIX + "capture.metrics";

  /** The algorithm name that turns gating off. */
  public static final String NONE = "none";

  /**
   * Largest {@value #STEP_DEADLINE_FACTOR}: a step's deadline stays a number of ms that fits a
   * long.
   */
  static final double MAX_DEADLINE_FACTOR = 1000;

  private final String algorithm;
  private final PlatformRates rates;
  private final String nicRatesText;
  private final double betaSeconds;
  private final boolean betaAuto;
  private final boolean kAuto;
  private final boolean backboneAuto;
  private final boolean nicAuto;
  private final long flowRateCap;
  private final double deadlineFactor;
  private final boolean barrierSteps;
  private final boolean predictedHandover;
  private final boolean stepProgress;
  private final long gateMinBytes;
  private final double gateMargin;
  private final long minDeadlineMs;
  private final long gatherWindowMs;
  private final long askTimeoutMs;
  private final long pollIntervalMs;
  private final long maxGrantWaitMs;
  private final List<String> listeners;
  private final long planningBudgetMs;
  private final long replanWaitMs;
  private final double planningShare;
  private final String planningFallback;
  private final Optional<String> topologyFile;

  private WanShuffleConf(SparkConf c, Collection<String> algorithms) {
    algorithm = algorithm(c, algorithms);
    rates = PlatformRates.from(c);
    nicRatesText = Settings.NIC_RATES.text(c);
    rates.incommensurateWarning(c).ifPresent(LOG::warn);
    Choice<Long> beta = Settings.BETA.get(c);
    betaAuto = beta.is(AUTO);
    betaSeconds = betaAuto ? AUTO_BETA_START_SECONDS : beta.value() / 1000.0;
    kAuto = Settings.K.get(c).is(AUTO);
    backboneAuto = Settings.BACKBONE_RATE.get(c).is(AUTO);
    nicAuto = Settings.NIC_RATE.get(c).is(AUTO);
    Choice<Long> cap = Settings.FLOW_RATE_CAP.get(c);
    flowRateCap = cap.is("off") ? 0 : cap.is("base") ? rates.baseSpeed() : cap.value();
    deadlineFactor = Settings.STEP_DEADLINE_FACTOR.get(c);
    minDeadlineMs = Settings.STEP_MIN_DEADLINE.get(c);
    barrierSteps = Settings.STEP_MODE.get(c).equals(BARRIER);
    predictedHandover = Settings.STEP_HANDOVER.get(c).equals(PREDICTED);
    stepProgress = Settings.STEP_PROGRESS.get(c);
    gatherWindowMs = Settings.GATHER_WINDOW.get(c);
    Choice<Long> gate = Settings.GATE_MIN_BYTES.get(c);
    gateMinBytes = gate.is(AUTO) ? -1 : gate.value();
    Choice<Double> margin = Settings.GATE_MARGIN.get(c);
    gateMargin = margin.is("off") ? -1 : margin.value();
    // the executors wait for a long-poll as a Scala duration of (poll interval + ask timeout) ns
    askTimeoutMs = Settings.ASK_TIMEOUT.get(c);
    pollIntervalMs = Settings.POLL_INTERVAL.get(c);
    maxGrantWaitMs = Settings.MAX_GRANT_WAIT.get(c);
    listeners = Settings.LISTENERS.get(c);
    planningBudgetMs = Settings.PLANNING_BUDGET.get(c);
    replanWaitMs = Settings.REPLAN_WAIT.get(c);
    planningShare = Settings.PLANNING_SHARE.get(c);
    planningFallback = planningFallback(c, algorithms);
    topologyFile = Settings.TOPOLOGY_FILE.getOptional(c);
    if (topologyFile.isPresent()) {
      for (ConfigEntry<?> e : List.of(Settings.K, Settings.DELTA)) {
        if (e.isSet(c) && !(e == Settings.K && kAuto)) {
          throw new ConfigValueException(
              e.key(),
              e.text(c),
              "set either this or "
                  + TOPOLOGY_FILE
                  + ", not both: with a topology file k and δ follow from its rates");
        }
      }
    }
    for (String key : Settings.undeclaredKeys(c)) {
      LOG.warn(
          "unknown configuration key {} = '{}' is ignored; known keys: {}",
          key,
          c.get(key),
          String.join(", ", Settings.keys()));
    }
  }

  /**
   * @return the algorithm set (lower case), else {@code auto} when the registry has it, else {@code
   *     oggp}
   * @throws ConfigValueException if it is neither {@value #NONE} nor in the registry
   */
  private static String algorithm(SparkConf c, Collection<String> algorithms) {
    if (!Settings.ALGORITHM.isSet(c)) {
      return algorithms.contains("auto") || !algorithms.contains("oggp")
          ? Settings.ALGORITHM.get(c)
          : "oggp";
    }
    String a = Settings.ALGORITHM.get(c);
    if (!a.equals(NONE) && !algorithms.contains(a)) {
      List<String> known = new ArrayList<>(algorithms);
      known.add(NONE);
      throw new ConfigValueException(
          ALGORITHM,
          Settings.ALGORITHM.text(c),
          "unknown algorithm; known: " + String.join(", ", known));
    }
    return a;
  }

  /**
   * @return {@value #GREEDY_FALLBACK} or a registered algorithm other than {@code exact}
   * @throws ConfigValueException otherwise
   */
  private static String planningFallback(SparkConf c, Collection<String> algorithms) {
    String f = Settings.PLANNING_FALLBACK.get(c);
    if (!f.equals(GREEDY_FALLBACK) && !algorithms.contains(f)) {
      List<String> known = new ArrayList<>();
      known.add(GREEDY_FALLBACK);
      known.addAll(algorithms);
      throw new ConfigValueException(
          PLANNING_FALLBACK,
          Settings.PLANNING_FALLBACK.text(c),
          "unknown algorithm; known: " + String.join(", ", known));
    }
    if (f.equals("exact")) {
      throw new ConfigValueException(
          PLANNING_FALLBACK,
          Settings.PLANNING_FALLBACK.text(c),
          "exact is for tiny instances only; a fallback must be fast (e.g. greedy)");
    }
    return f;
  }

  /**
   * Reads and validates every {@value #PREFIX} key.
   *
   * @param conf the Spark configuration
   * @return the validated configuration
   * @throws ConfigValueException naming the first wrong key and its value
   */
  public static WanShuffleConf from(SparkConf conf) {
    return new WanShuffleConf(conf, Algorithms.names());
  }

  /**
   * Reads and validates every {@value #PREFIX} key, accepting the given algorithm names (for an
   * embedding that supplies its own {@code StepScheduler}, and for tests).
   *
   * @param conf the Spark configuration
   * @param algorithms accepted algorithm names besides {@value #NONE}, lower case
   * @return the validated configuration
   * @throws ConfigValueException naming the first wrong key and its value
   */
  public static WanShuffleConf from(SparkConf conf, Collection<String> algorithms) {
    return new WanShuffleConf(conf, algorithms);
  }

  /**
   * @return the algorithm name, lower case; {@value #NONE} means no gating
   */
  public String algorithm() {
    return algorithm;
  }

  /**
   * @return true unless the algorithm is {@value #NONE}
   */
  public boolean gated() {
    return !algorithm.equals(NONE);
  }

  /**
   * @return k: most cross-cluster flows open at once across the application
   */
  public int k() {
    return rates.k();
  }

  /**
   * @param host a host name
   * @return δ(host): most cross-cluster flows the host may send (or receive) at once, 1..k
   */
  public int delta(String host) {
    return rates.delta(host);
  }

  /**
   * @return base speed b in bytes/s: one flow's share, amounts in seconds = bytes / b
   */
  public long baseSpeed() {
    return rates.baseSpeed();
  }

  /**
   * @return backbone rate, bytes/s
   */
  public long backboneRate() {
    return rates.backboneRate();
  }

  /**
   * @return {@value #NIC_RATES} as given (empty when unset), for messages
   */
  public String nicRatesText() {
    return nicRatesText;
  }

  /**
   * @return the hosts {@value #NIC_RATES} gives a rate of their own, in the order listed
   */
  public Set<String> nicRateHosts() {
    return rates.nicRateHosts();
  }

  /**
   * @param host a host name
   * @return the host's NIC rate, bytes/s
   */
  public long nicRate(String host) {
    return rates.nicRate(host);
  }

  /**
   * @return β, setup delay per step, seconds: the configured value, or {@link
   *     #AUTO_BETA_START_SECONDS} when {@value #BETA} is {@code auto}
   */
  public double betaSeconds() {
    return betaSeconds;
  }

  /**
   * @return true when {@value #BACKBONE_RATE} is {@code auto} (set so, or unset): measured where
   *     the platform follows measurement ({@link #platformAuto()}), not checked against the
   *     measurement
   */
  public boolean backboneAuto() {
    return backboneAuto;
  }

  /**
   * @return true when {@value #NIC_RATE} is {@code auto} (set so, or unset): measured NIC rates
   *     replace the start rate of the hosts not listed in {@value #NIC_RATES} where the platform
   *     follows measurement ({@link #platformAuto()})
   */
  public boolean nicAuto() {
    return nicAuto;
  }

  /**
   * @return true when the coordinator re-derives k, the base speed and δ from measured rates:
   *     {@value #K} is {@code auto} (set so, or unset) and {@value #BACKBONE_RATE} or {@value
   *     #NIC_RATE} is {@code auto} (set so, or unset); a rate set explicitly stays as configured,
   *     and with both set k is the base-speed rule's on them
   */
  public boolean platformAuto() {
    return kAuto && (backboneAuto || nicAuto);
  }

  /**
   * @return δ set for every host by {@value #DELTA} (capped by k where used), 0 when derived
   */
  public int deltaSet() {
    return rates.deltaOverride();
  }

  /**
   * @return true when {@value #BETA} is {@code auto} (set so, or unset): the coordinator replaces
   *     {@link #betaSeconds()} by the measured β once it measured {@link #AUTO_MIN_FLOWS} flows
   */
  public boolean betaAuto() {
    return betaAuto;
  }

  /**
   * @return true when {@value #K} is {@code auto} (set so, or unset): {@link #k()} is the
   *     base-speed rule's, and, while a rate is {@code auto} too ({@link #platformAuto()}), the
   *     coordinator replaces it by measured backbone rate / measured per-flow rate once it measured
   *     {@link #AUTO_MIN_FLOWS} flows (KPBS platform only, not with a topology file)
   */
  public boolean kAuto() {
    return kAuto;
  }

  /**
   * @return per-flow rate cap in bytes/s, 0 when off
   */
  public long flowRateCap() {
    return flowRateCap;
  }

  /**
   * @return true when steps are separated by barriers ({@value #STEP_MODE} = {@value #BARRIER}),
   *     false when pipelined
   */
  public boolean barrierSteps() {
    return barrierSteps;
  }

  /**
   * @return the margin of {@value #GATE_MARGIN}: a stage is gated only when its transfer phase
   *     predicted as scheduled is below (1 - margin) x its prediction as Spark's default; -1 when
   *     {@code off} (every stage gated)
   */
  public double gateMargin() {
    return gateMargin;
  }

  /**
   * The bytes below which a task's cross-cluster read of one shuffle is not gated ({@value
   * #GATE_MIN_BYTES}). A size set there is the answer for every read (0 gates every read with
   * cross-cluster blocks). With {@value #AUTO}: the receiver takes at most δ(receiver) flows at
   * once (KPBS's δ-port rule, GGP/OGGP paper sec. 2), so a read from s source hosts needs at least
   * ceil(s / δ) steps and adds at least that many setup delays β; it is gated when its bytes at the
   * base speed b last at least {@value #AUTO_SETUP_SHARE_INVERSE} times that setup, i.e. the
   * threshold is {@value #AUTO_SETUP_SHARE_INVERSE} x ceil(s / δ) x β x b bytes (with the defaults
   * on 100 Mbit/s NICs, β = 50 ms: 2.5 MB per step, 7.5 MB for a read from 3 hosts). Smaller reads
   * cost more in registrations and step set-ups than scheduling them saves
   * (docs/benchmarks/end-to-end.md, "Many small reduce tasks").
   *
   * @param sourceHosts distinct cross-cluster hosts the read fetches from, at least 1
   * @param receiver the reading task's host
   * @return the threshold, bytes
   */
  public long gateMinBytes(int sourceHosts, String receiver) {
    return gateMinBytes(sourceHosts, delta(receiver), baseSpeed());
  }

  /**
   * {@link #gateMinBytes(int, String)} on a link model other than the rate keys' (a topology file):
   * the same rule with the receiver's δ and the base speed given.
   *
   * @param sourceHosts distinct cross-cluster hosts the read fetches from, at least 1
   * @param receiverPorts δ of the reading task's host as a receiver, at least 1
   * @param baseSpeed the bytes/s of one flow
   * @return the threshold, bytes
   */
  public long gateMinBytes(int sourceHosts, int receiverPorts, long baseSpeed) {
    if (gateMinBytes >= 0) {
      return gateMinBytes;
    }
    int d = Math.max(1, receiverPorts);
    long steps = (Math.max(1, sourceHosts) + d - 1) / d;
    return Math.round(
        Math.min(Long.MAX_VALUE, AUTO_SETUP_SHARE_INVERSE * steps * betaSeconds * baseSpeed));
  }

  /**
   * @return true when {@value #GATE_MIN_BYTES} is {@value #AUTO} (the threshold depends on the
   *     read)
   */
  public boolean gateMinBytesAuto() {
    return gateMinBytes < 0;
  }

  /**
   * @return true when steps are reported ahead of their end as predicted ({@value #STEP_HANDOVER} =
   *     {@value #PREDICTED}), false when on arrival of their last block
   */
  public boolean predictedHandover() {
    return predictedHandover;
  }

  /**
   * @return true when, with predicted hand-over, a step's blocks are streamed so their bytes are
   *     counted as they arrive ({@value #STEP_PROGRESS})
   */
  public boolean stepProgress() {
    return stepProgress;
  }

  /**
   * @return step deadline factor (≥ 1) applied to β + planned step duration
   */
  public double deadlineFactor() {
    return deadlineFactor;
  }

  /**
   * @return minimum step deadline, ms
   */
  public long minDeadlineMs() {
    return minDeadlineMs;
  }

  /**
   * @return gather window before planning from idle, ms
   */
  public long gatherWindowMs() {
    return gatherWindowMs;
  }

  /**
   * @return timeout of short coordinator calls, ms
   */
  public long askTimeoutMs() {
    return askTimeoutMs;
  }

  /**
   * @return how long the driver holds a long-poll grant request, ms
   */
  public long pollIntervalMs() {
    return pollIntervalMs;
  }

  /**
   * @return longest total wait for grants of one task before fetching ungated, ms
   */
  public long maxGrantWaitMs() {
    return maxGrantWaitMs;
  }

  /**
   * @return class names of the coordinator listeners to instantiate on the driver
   */
  public List<String> listeners() {
    return listeners;
  }

  /**
   * @return planning time budget of one re-plan, ms; 0 = unbounded
   */
  public long planningBudgetMs() {
    return planningBudgetMs;
  }

  /**
   * @return how long a port freed while the planner is busy may wait for the re-plan, ms: when the
   *     last planning round took longer, the port takes the last plan's next transfer at once
   *     (pipelined steps)
   */
  public long replanWaitMs() {
    return replanWaitMs;
  }

  /**
   * @return the largest share of the wall-clock time the planner's rounds take with pipelined
   *     steps, in (0, 1]: after a round of t ms the next starts no sooner than t (1 / share - 1) ms
   *     later (at most 250 ms), unless a freed port finds nothing in the last plan
   */
  public double planningShare() {
    return planningShare;
  }

  /**
   * @return the scheduler used for a step whose re-plan exceeded the budget: {@value
   *     #GREEDY_FALLBACK} or a registered algorithm name, lower case
   */
  public String planningFallback() {
    return planningFallback;
  }

  /**
   * @return the topology file ({@value #TOPOLOGY_FILE}) as given, empty when unset: then the link
   *     model is the KPBS platform of the rate keys
   */
  public Optional<String> topologyFile() {
    return topologyFile;
  }

  @Override
  public String toString() {
    return "wan-shuffle[algorithm="
        + algorithm
        + ", k="
        + k()
        + ", base speed="
        + baseSpeed()
        + " B/s, backbone="
        + backboneRate()
        + " B/s, default NIC="
        + rates.defaultNicRate()
        + " B/s, beta="
        + betaSeconds
        + " s, steps="
        + (barrierSteps ? BARRIER : PIPELINED)
        + ", hand-over="
        + (predictedHandover ? PREDICTED : ARRIVAL)
        + (predictedHandover && !stepProgress ? " (no progress)" : "")
        + ", flow cap="
        + flowRateCap
        + " B/s, gate min bytes="
        + (gateMinBytes < 0
            ? AUTO + " (" + gateMinBytes(1, "") + " B per step)"
            : gateMinBytes + " B")
        + ", planning budget="
        + planningBudgetMs
        + " ms then "
        + planningFallback
        + "]";
  }
}
