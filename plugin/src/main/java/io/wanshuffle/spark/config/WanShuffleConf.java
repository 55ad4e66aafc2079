package io.wanshuffle.spark.config;

import io.wanshuffle.scheduler.BaseSpeed;
import io.wanshuffle.scheduler.alg.Algorithms;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;

/**
 * The validated configuration of wan-shuffle: every key lives under {@value #PREFIX} and is read
 * once, at start-up, from the {@link SparkConf}. A wrong value fails fast with a {@link
 * ConfigValueException} naming the key and the value. All keys, defaults and units are listed in
 * {@code docs/configuration.md}.
 *
 * <p>k, δ and the base speed follow the base-speed rule of the DGGP paper (Jeannot and Wagner, sec.
 * 2.2, {@link BaseSpeed}): base speed b = gcd(backbone rate, NIC rates), k = backbone / b, δ(h) =
 * min(k, NIC(h) / b). Setting {@value #K} (and optionally {@value #DELTA}) overrides the rule; b is
 * then backbone / k.
 *
 * <p>Instances are immutable and serialisable-free; build one per JVM with {@link #from}.
 */
public final class WanShuffleConf {
  /** Prefix of every key. */
  public static final String PREFIX = "spark.wanshuffle.";

  /** Step scheduler name ({@code auto}, {@code oggp}, ...) or {@code none} (no gating). */
  public static final String ALGORITHM = PREFIX + "algorithm";

  /** Backbone rate between the clusters (rate, e.g. {@code 1gbit}). */
  public static final String BACKBONE_RATE = PREFIX + "backbone.rate";

  /** NIC rate of every host not listed in {@value #NIC_RATES} (rate). */
  public static final String NIC_RATE = PREFIX + "nic.rate";

  /** Per-host NIC rates: {@code host=rate,host=rate}. */
  public static final String NIC_RATES = PREFIX + "nic.rates";

  /** k set directly (integer ≥ 1); overrides the base-speed rule. */
  public static final String K = PREFIX + "k";

  /** δ set directly for every host (integer ≥ 1); overrides the base-speed rule. */
  public static final String DELTA = PREFIX + "delta";

  /** β, setup delay of a step (time, e.g. {@code 50ms}). */
  public static final String BETA = PREFIX + "beta";

  /** Optional per-flow rate cap (rate, or {@code base} for the base speed; unset = off). */
  public static final String FLOW_RATE_CAP = PREFIX + "flow.rateCap";

  /** Step deadline = max(minDeadline, factor × (β + planned step duration)). */
  public static final String STEP_DEADLINE_FACTOR = PREFIX + "step.deadlineFactor";

  /** Lower bound of a step deadline (time). */
  public static final String STEP_MIN_DEADLINE = PREFIX + "step.minDeadline";

  /**
   * How steps follow each other: {@value #PIPELINED} (default; a flow's ports are re-used as soon
   * as it ends) or {@value #BARRIER} (the papers' KPBS steps: the next step starts when every flow
   * of the current one ended).
   */
  public static final String STEP_MODE = PREFIX + "step.mode";

  /** {@value #STEP_MODE} value: pipelined steps. */
  public static final String PIPELINED = "pipelined";

  /** {@value #STEP_MODE} value: steps separated by barriers. */
  public static final String BARRIER = "barrier";

  /**
   * When a task reports a granted step so the coordinator hands its ports on: {@value #PREDICTED}
   * (default: when the next flow's first byte would meet the step's last one, from the rates and
   * round trips the executor measured; until they are measured, and for a source host whose
   * connection is new, on arrival) or {@value #ARRIVAL} (when the step's last block has arrived:
   * flows never overlap on the wire, each hand-over leaves the ports idle for about three round
   * trips).
   */
  public static final String STEP_HANDOVER = PREFIX + "step.handover";

  /** {@value #STEP_HANDOVER} value: report when the step's end is near, as predicted. */
  public static final String PREDICTED = "predicted";

  /** {@value #STEP_HANDOVER} value: report when the step's last block arrived. */
  public static final String ARRIVAL = "arrival";

  /**
   * With predicted hand-over, whether a step's blocks are streamed into memory so that the reader
   * counts their bytes as they arrive and postpones the hand-over of a flow that falls behind its
   * prediction (true, default), or fetched as Spark chooses (false: a block Spark holds in memory
   * is seen only when its last byte has arrived).
   */
  public static final String STEP_PROGRESS = PREFIX + "step.progress";

  /**
   * Longest time the coordinator gathers registrations before planning when idle (time; default 200
   * ms). The window ends earlier, as soon as every task the driver launched in the stages with
   * demand has registered or ended.
   */
  public static final String GATHER_WINDOW = PREFIX + "coordinator.gatherWindow";

  /**
   * Whether pipelined steps count the expected bytes of the stage's tasks still to launch (from
   * their locality preferences) in the ports' loads: {@code true} (default) or {@code false}
   * (registered demand only).
   */
  public static final String PENDING_TASKS = PREFIX + "coordinator.pendingTasks";

  /**
   * Whether pipelined steps stagger the ends of the receivers' running tasks while tasks are still
   * to launch (urgent ports first, then the receivers with tasks to launch by fewest bytes left):
   * {@code true} (default) or {@code false} (by load only).
   */
  public static final String STAGGER_TASK_ENDS = PREFIX + "coordinator.staggerTaskEnds";

  /** Timeout of a short coordinator call (registration) before falling back (time). */
  public static final String ASK_TIMEOUT = PREFIX + "coordinator.askTimeout";

  /** How long the driver holds one long-poll grant request before answering "not yet" (time). */
  public static final String POLL_INTERVAL = PREFIX + "grant.pollInterval";

  /** Longest total time a task waits for grants before fetching ungated (time). */
  public static final String MAX_GRANT_WAIT = PREFIX + "grant.maxWait";

  /**
   * Planning time budget of one re-plan (time; {@code 0} = unbounded): past it the step is planned
   * with {@value #PLANNING_FALLBACK}.
   */
  public static final String PLANNING_BUDGET = PREFIX + "planning.budget";

  /** Fast scheduler used for a step whose re-plan exceeded {@value #PLANNING_BUDGET}. */
  public static final String PLANNING_FALLBACK = PREFIX + "planning.fallback";

  /** Default of {@value #PLANNING_BUDGET}. */
  static final String DEFAULT_PLANNING_BUDGET = "500ms";

  /** Default of {@value #PLANNING_FALLBACK}: the greedy first step built into the plugin. */
  public static final String GREEDY_FALLBACK = "greedy";

  /**
   * A reduce task whose cross-cluster blocks of one shuffle read total fewer bytes than this
   * fetches them at once, ungated: a size ({@code 0} gates every such read) or {@value #AUTO} (the
   * default): {@value #AUTO_SETUP_SHARE_INVERSE} x (the read's steps) x β x base speed, see {@link
   * #gateMinBytes(int, String)}.
   */
  public static final String GATE_MIN_BYTES = PREFIX + "gate.minBytes";

  /**
   * The value of {@value #GATE_MIN_BYTES} that derives the threshold per read from β and the rates.
   */
  public static final String AUTO = "auto";

  /**
   * With {@value #GATE_MIN_BYTES} = {@value #AUTO}, a read is gated when the setup delays of its
   * steps are at most 1 / this of the read's time in them: its bytes at the base speed are at least
   * this many times (steps x β).
   */
  static final int AUTO_SETUP_SHARE_INVERSE = 4;

  /** Comma-separated {@code CoordinatorListener} classes instantiated on the driver. */
  public static final String LISTENERS = PREFIX + "listeners";

  /** The algorithm name that turns gating off. */
  public static final String NONE = "none";

  private final String algorithm;
  private final long backboneRate;
  private final long defaultNicRate;
  private final Map<String, Long> nicRates;
  private final String nicRatesText;
  private final int k;
  private final int deltaOverride;
  private final long baseSpeed;
  private final double betaSeconds;
  private final long flowRateCap;
  private final double deadlineFactor;
  private final boolean barrierSteps;
  private final boolean predictedHandover;
  private final boolean stepProgress;
  private final boolean pendingTasks;
  private final boolean staggerTaskEnds;
  private final long gateMinBytes;
  private final long minDeadlineMs;
  private final long gatherWindowMs;
  private final long askTimeoutMs;
  private final long pollIntervalMs;
  private final long maxGrantWaitMs;
  private final List<String> listeners;
  private final long planningBudgetMs;
  private final String planningFallback;

  private WanShuffleConf(SparkConf c, Collection<String> algorithms) {
    algorithm = c.get(ALGORITHM, defaultAlgorithm(algorithms)).trim().toLowerCase(Locale.ROOT);
    if (!algorithm.equals(NONE) && !algorithms.contains(algorithm)) {
      List<String> known = new ArrayList<>(algorithms);
      known.add(NONE);
      throw new ConfigValueException(
          ALGORITHM,
          c.get(ALGORITHM, algorithm),
          "unknown algorithm; known: " + String.join(", ", known));
    }
    backboneRate = Rates.parse(BACKBONE_RATE, c.get(BACKBONE_RATE, "10gbit"));
    defaultNicRate = Rates.parse(NIC_RATE, c.get(NIC_RATE, "1gbit"));
    nicRatesText = c.get(NIC_RATES, "");
    nicRates = parseNicRates(nicRatesText);
    deltaOverride = c.contains(DELTA) ? positiveInt(DELTA, c.get(DELTA)) : 0;
    if (c.contains(K)) {
      k = positiveInt(K, c.get(K));
      if (backboneRate / k < 1) {
        throw new ConfigValueException(
            K,
            c.get(K),
            "more flows than the backbone's "
                + backboneRate
                + " bytes/s ("
                + BACKBONE_RATE
                + "): a flow would run at less than 1 byte/s");
      }
      baseSpeed = backboneRate / k;
    } else {
      long[] nics = new long[nicRates.size() + 1];
      nics[0] = defaultNicRate;
      int i = 1;
      for (long r : nicRates.values()) {
        nics[i++] = r;
      }
      BaseSpeed b;
      try {
        b = BaseSpeed.of(backboneRate, nics, nics);
      } catch (IllegalArgumentException e) {
        throw new ConfigValueException(
            BACKBONE_RATE,
            c.get(BACKBONE_RATE, "10gbit"),
            e.getMessage()
                + " (backbone "
                + backboneRate
                + " B/s, NICs "
                + java.util.Arrays.toString(
                    java.util.Arrays.stream(nics).distinct().sorted().toArray())
                + " B/s from "
                + NIC_RATE
                + " and "
                + NIC_RATES
                + "), or set "
                + K
                + " directly");
      }
      k = b.k();
      baseSpeed = b.bytesPerSecond();
    }
    warnIfIncommensurate(c);
    betaSeconds = timeMs(c, BETA, "50ms", 0) / 1000.0;
    String cap = c.get(FLOW_RATE_CAP, "").trim();
    if (cap.isEmpty() || cap.equalsIgnoreCase("off")) {
      flowRateCap = 0;
    } else if (cap.equalsIgnoreCase("base")) {
      flowRateCap = baseSpeed;
    } else {
      flowRateCap = Rates.parse(FLOW_RATE_CAP, cap);
    }
    deadlineFactor =
        boundedDouble(
            STEP_DEADLINE_FACTOR, c.get(STEP_DEADLINE_FACTOR, "3"), 1.0, MAX_DEADLINE_FACTOR);
    minDeadlineMs = timeMs(c, STEP_MIN_DEADLINE, "5s", 1);
    barrierSteps = oneOf(c, STEP_MODE, PIPELINED, BARRIER).equals(BARRIER);
    predictedHandover = oneOf(c, STEP_HANDOVER, PREDICTED, ARRIVAL).equals(PREDICTED);
    stepProgress = oneOf(c, STEP_PROGRESS, "true", "false").equals("true");
    gatherWindowMs = timeMs(c, GATHER_WINDOW, "200ms", 0);
    pendingTasks = oneOf(c, PENDING_TASKS, "true", "false").equals("true");
    staggerTaskEnds = oneOf(c, STAGGER_TASK_ENDS, "true", "false").equals("true");
    gateMinBytes =
        c.get(GATE_MIN_BYTES, AUTO).trim().equalsIgnoreCase(AUTO)
            ? -1
            : bytes(c, GATE_MIN_BYTES, AUTO);
    // the executors wait for a long-poll as a Scala duration of (poll interval + ask timeout) ns
    askTimeoutMs = timeMs(c, ASK_TIMEOUT, "30s", 1);
    pollIntervalMs = timeMs(c, POLL_INTERVAL, "10s", 1);
    maxGrantWaitMs = timeMs(c, MAX_GRANT_WAIT, "30min", 1);
    List<String> ls = new ArrayList<>();
    for (String s : c.get(LISTENERS, "").split(",")) {
      if (!s.isBlank()) {
        ls.add(s.trim());
      }
    }
    listeners = Collections.unmodifiableList(ls);
    planningBudgetMs = timeMs(c, PLANNING_BUDGET, DEFAULT_PLANNING_BUDGET, 0);
    planningFallback = c.get(PLANNING_FALLBACK, GREEDY_FALLBACK).trim().toLowerCase(Locale.ROOT);
    if (!planningFallback.equals(GREEDY_FALLBACK) && !algorithms.contains(planningFallback)) {
      List<String> known = new ArrayList<>();
      known.add(GREEDY_FALLBACK);
      known.addAll(algorithms);
      throw new ConfigValueException(
          PLANNING_FALLBACK,
          c.get(PLANNING_FALLBACK, planningFallback),
          "unknown algorithm; known: " + String.join(", ", known));
    }
    if (planningFallback.equals("exact")) {
      throw new ConfigValueException(
          PLANNING_FALLBACK,
          c.get(PLANNING_FALLBACK, planningFallback),
          "exact is for tiny instances only; a fallback must be fast (e.g. greedy)");
    }
    warnUnknownKeys(c);
  }

  static final List<String> KNOWN =
      List.of(
          ALGORITHM,
          BACKBONE_RATE,
          NIC_RATE,
          NIC_RATES,
          K,
          DELTA,
          BETA,
          FLOW_RATE_CAP,
          STEP_DEADLINE_FACTOR,
          STEP_MIN_DEADLINE,
          STEP_MODE,
          STEP_HANDOVER,
          STEP_PROGRESS,
          GATHER_WINDOW,
          PENDING_TASKS,
          STAGGER_TASK_ENDS,
          GATE_MIN_BYTES,
          ASK_TIMEOUT,
          POLL_INTERVAL,
          MAX_GRANT_WAIT,
          LISTENERS,
          PLANNING_BUDGET,
          PLANNING_FALLBACK);

  /**
   * The capture's keys (read by {@code CaptureListener}, listed here for the misspelling check).
   */
  static final List<String> CAPTURE_KEYS =
      List.of(PREFIX + "capture.dir", PREFIX + "capture.events", PREFIX + "capture.metrics");

  /** A misspelt key would silently fall back to its default: say so once at start-up. */
  private static void warnUnknownKeys(SparkConf c) {
    for (scala.Tuple2<String, String> kv : c.getAllWithPrefix(PREFIX)) {
      String key = PREFIX + kv._1();
      if (!KNOWN.contains(key) && !CAPTURE_KEYS.contains(key)) {
        org.slf4j.LoggerFactory.getLogger(WanShuffleConf.class)
            .warn(
                "unknown configuration key {} = '{}' is ignored; known keys: {}, {}",
                key,
                kv._2(),
                String.join(", ", KNOWN),
                String.join(", ", CAPTURE_KEYS));
      }
    }
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
   * @return {@code auto} when the registry has it, else {@code oggp}
   */
  private static String defaultAlgorithm(Collection<String> algorithms) {
    return algorithms.contains("auto") || !algorithms.contains("oggp") ? "auto" : "oggp";
  }

  private static Map<String, Long> parseNicRates(String text) {
    Map<String, Long> m = new LinkedHashMap<>();
    if (text.isBlank()) {
      return Collections.unmodifiableMap(m);
    }
    for (String entry : text.split(",", -1)) {
      String e = entry.trim();
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new ConfigValueException(
            NIC_RATES, text, "entry '" + e + "' is not host=rate (e.g. node1=10gbit,node2=1gbit)");
      }
      String host = e.substring(0, eq).trim();
      long rate;
      try {
        rate = Rates.parse(NIC_RATES, e.substring(eq + 1).trim());
      } catch (ConfigValueException bad) {
        throw new ConfigValueException(NIC_RATES, text, "entry '" + e + "': " + bad.expected());
      }
      if (m.put(host, rate) != null) {
        throw new ConfigValueException(NIC_RATES, text, "host " + host + " is listed twice");
      }
    }
    return Collections.unmodifiableMap(m);
  }

  private static final java.util.regex.Pattern ASCII_INTEGER =
      java.util.regex.Pattern.compile("\\+?[0-9]+");
  private static final java.util.regex.Pattern DECIMAL =
      java.util.regex.Pattern.compile("\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  /** An integer of ASCII digits from 1 to {@link BaseSpeed#MAX_FLOWS} (flows: k, δ). */
  private static int positiveInt(String key, String v) {
    String t = v.trim();
    if (ASCII_INTEGER.matcher(t).matches()) {
      try {
        int n = Integer.parseInt(t);
        if (n >= 1 && n <= BaseSpeed.MAX_FLOWS) {
          return n;
        }
      } catch (NumberFormatException e) {
        // fall through to the error below
      }
    }
    throw new ConfigValueException(
        key, v, "must be an integer >= 1 and <= " + BaseSpeed.MAX_FLOWS + " (flows)");
  }

  /** A plain decimal number (no hex, no Java suffixes) from {@code min} to {@code max}. */
  private static double boundedDouble(String key, String v, double min, double max) {
    String t = v.trim();
    if (DECIMAL.matcher(t).matches()) {
      double d = Double.parseDouble(t);
      if (d >= min && d <= max) {
        return d;
      }
    }
    throw new ConfigValueException(key, v, "must be a decimal number >= " + min + " and <= " + max);
  }

  /**
   * @return the value of a key that takes one of two words (case-insensitive), lower-cased; {@code
   *     dflt} when unset
   * @throws ConfigValueException if it is neither
   */
  private static String oneOf(SparkConf c, String key, String dflt, String other) {
    String v = c.get(key, dflt).trim().toLowerCase(Locale.ROOT);
    if (!v.equals(dflt) && !v.equals(other)) {
      throw new ConfigValueException(key, c.get(key, v), "expected " + dflt + " or " + other);
    }
    return v;
  }

  /**
   * A time in Spark's syntax (a bare number is milliseconds) from {@code min} ms to {@link
   * #MAX_TIME_MS}; a non-zero time under 1 ms is refused, since it would read as 0, which for some
   * keys means "off" or "unbounded".
   */
  private static long timeMs(SparkConf c, String key, String dflt, long min) {
    String v = c.get(key, dflt);
    long ms;
    boolean underOneMs;
    try {
      ms = org.apache.spark.network.util.JavaUtils.timeStringAsMs(v);
      // a bare number is ms (never under 1 ms but for 0); with a unit, 500us reads as 0 ms
      underOneMs =
          ms == 0
              && org.apache.spark.network.util.JavaUtils.timeStringAs(v, TimeUnit.MICROSECONDS) > 0;
    } catch (RuntimeException e) {
      throw new ConfigValueException(key, v, "expected a time such as 200ms, 5s, 2min");
    }
    if (underOneMs) {
      throw new ConfigValueException(
          key, v, "under 1 ms, which would read as 0 ms; give 0 or at least 1ms");
    }
    if (ms < min) {
      throw new ConfigValueException(key, v, "must be at least " + min + " ms");
    }
    if (ms > MAX_TIME_MS) {
      throw new ConfigValueException(key, v, "must be at most 365d");
    }
    return ms;
  }

  /**
   * Slowest NIC over base speed above which the rates look mistyped (see {@link
   * #warnIfIncommensurate}).
   */
  static final long INCOMMENSURATE_RATIO = 64;

  /**
   * Warns when the slowest NIC is more than {@value #INCOMMENSURATE_RATIO} flows of the base speed
   * (and δ is derived): the rates then share no large common divisor, as when byte and bit units
   * are mixed ({@code 100mb} is 100 MiB/s), and k and δ count thousands of tiny flows.
   */
  private void warnIfIncommensurate(SparkConf c) {
    long slowest = defaultNicRate;
    for (long r : nicRates.values()) {
      slowest = Math.min(slowest, r);
    }
    if (deltaOverride == 0 && slowest / baseSpeed > INCOMMENSURATE_RATIO) {
      org.slf4j.LoggerFactory.getLogger(WanShuffleConf.class)
          .warn(
              "wan-shuffle: {} = '{}' and {} = '{}'{}"
                  + " share no large common divisor: base speed {} B/s, k = {}, the slowest NIC {} flows; byte and"
                  + " bit units mixed ('100mb' is 100 MiB/s, '100mbit' 12.5 MB/s)? Write the rates in one unit,"
                  + " or set {} and {}",
              BACKBONE_RATE,
              c.get(BACKBONE_RATE, "10gbit"),
              NIC_RATE,
              c.get(NIC_RATE, "1gbit"),
              nicRates.isEmpty() ? "" : " (and " + NIC_RATES + ")",
              baseSpeed,
              k,
              slowest / baseSpeed,
              K,
              DELTA);
    }
  }

  /**
   * Largest {@value #STEP_DEADLINE_FACTOR}: a step's deadline stays a number of ms that fits a
   * long.
   */
  static final double MAX_DEADLINE_FACTOR = 1000;

  /**
   * Longest time any key takes (365 days, ms): deadlines and RPC waits built from it fit a long.
   */
  static final long MAX_TIME_MS = 365L * 24 * 3600 * 1000;

  private static long bytes(SparkConf c, String key, String dflt) {
    String v = c.get(key, dflt);
    try {
      return c.getSizeAsBytes(key, dflt); // Spark's parser refuses negative sizes
    } catch (RuntimeException e) {
      throw new ConfigValueException(
          key, v, "expected a size of at least 0 such as 0, 512k, 4m (bytes)");
    }
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
    return k;
  }

  /**
   * @param host a host name
   * @return δ(host): most cross-cluster flows the host may send (or receive) at once, 1..k
   */
  public int delta(String host) {
    if (deltaOverride > 0) {
      return Math.min(k, deltaOverride);
    }
    long nic = nicRates.getOrDefault(host, defaultNicRate);
    return (int) Math.max(1, Math.min(k, nic / baseSpeed));
  }

  /**
   * @return base speed b in bytes/s: one flow's share, amounts in seconds = bytes / b
   */
  public long baseSpeed() {
    return baseSpeed;
  }

  /**
   * @return backbone rate, bytes/s
   */
  public long backboneRate() {
    return backboneRate;
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
  public java.util.Set<String> nicRateHosts() {
    return nicRates.keySet();
  }

  /**
   * @param host a host name
   * @return the host's NIC rate, bytes/s
   */
  public long nicRate(String host) {
    return nicRates.getOrDefault(host, defaultNicRate);
  }

  /**
   * @return β, setup delay per step, seconds
   */
  public double betaSeconds() {
    return betaSeconds;
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
   * @return true when pipelined steps count the tasks still to launch in the ports' loads ({@value
   *     #PENDING_TASKS})
   */
  public boolean pendingTasks() {
    return pendingTasks;
  }

  /**
   * @return true when pipelined steps stagger the receivers' task ends while tasks are still to
   *     launch ({@value #STAGGER_TASK_ENDS})
   */
  public boolean staggerTaskEnds() {
    return staggerTaskEnds;
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
   * cost more in registrations and step set-ups than scheduling them saves (measured:
   * docs/benchmarks/end-to-end.md, "Many small reduce tasks").
   *
   * @param sourceHosts distinct cross-cluster hosts the read fetches from, at least 1
   * @param receiver the reading task's host
   * @return the threshold, bytes
   */
  public long gateMinBytes(int sourceHosts, String receiver) {
    if (gateMinBytes >= 0) {
      return gateMinBytes;
    }
    int d = delta(receiver);
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
   * @return the scheduler used for a step whose re-plan exceeded the budget: {@value
   *     #GREEDY_FALLBACK} or a registered algorithm name, lower case
   */
  public String planningFallback() {
    return planningFallback;
  }

  @Override
  public String toString() {
    return "wan-shuffle[algorithm="
        + algorithm
        + ", k="
        + k
        + ", base speed="
        + baseSpeed
        + " B/s, backbone="
        + backboneRate
        + " B/s, default NIC="
        + defaultNicRate
        + " B/s, beta="
        + betaSeconds
        + " s, steps="
        + (barrierSteps ? BARRIER : PIPELINED)
        + ", hand-over="
        + (predictedHandover ? PREDICTED : ARRIVAL)
        + (predictedHandover && !stepProgress ? " (no progress)" : "")
        + ", pending tasks="
        + pendingTasks
        + ", stagger task ends="
        + staggerTaskEnds
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
