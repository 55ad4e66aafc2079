package io.wanshuffle.spark.config;

import io.wanshuffle.scheduler.alg.Algorithms;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validated configuration of wan-shuffle: every {@value Settings#PREFIX} key declared in {@link
 * Settings} read and checked once, at start-up, from the {@link SparkConf}, and what the plugin
 * derives from several of them. A wrong value fails fast with a {@link ConfigValueException} naming
 * the key and the value; a key under {@value Settings#PREFIX} that no setting declares is logged as
 * a warning. All keys, defaults and units are listed in {@code docs/configuration.md}, generated
 * from the declarations.
 *
 * <p>A setting's value is read with {@link #get}, e.g. {@code conf.get(Settings.GATHER_WINDOW)}
 * (milliseconds). What follows from several settings is read here: whether gating is on ({@link
 * #gated()}), the platform's k, δ and base speed, the β planned with, the flow rate cap and the
 * {@code gate.minBytes} threshold.
 *
 * <p>k, δ and the base speed follow the base-speed rule of the DGGP paper (Jeannot and Wagner, sec.
 * 2.2-2.3; {@link PlatformRates}): base speed b = gcd(backbone rate, NIC rates), k = backbone / b,
 * δ(h) = min(k, NIC(h) / b). Setting {@code spark.wanshuffle.k} (and optionally {@code
 * spark.wanshuffle.delta}) overrides the rule; b is then backbone / k.
 *
 * <p>{@link Settings#BETA}, {@link Settings#K}, {@link Settings#BACKBONE_RATE} and {@link
 * Settings#NIC_RATE} default to {@value Settings#AUTO}: with nothing typed, β and the rates start
 * from conservative values ({@link #AUTO_BETA_START_SECONDS}; NICs at 100 Mbit/s, the backbone at
 * 10 NICs) and the driver's coordinator replaces them, and the k and δ derived from them, by
 * measured ones. A value set explicitly is used as configured: a number for k is never replaced,
 * and a rate set explicitly stays in the rule while the unset one is measured.
 *
 * <p>Instances are immutable; build one per JVM with {@link #from}.
 */
public final class WanShuffleConf {
  private static final Logger LOG = LoggerFactory.getLogger(WanShuffleConf.class);

  /**
   * Most flows k or δ may count (scheduler-core's limit). Classes outside this package read it here
   * rather than from scheduler-core: an inlined scheduler-core constant leaves a class reference
   * that the shaded jar does not relocate.
   */
  public static final int MAX_FLOWS = PlatformRates.MAX_FLOWS;

  /**
   * β, seconds, a coordinator plans with while {@link Settings#BETA} is {@code auto} and fewer than
   * {@link #AUTO_MIN_FLOWS} gated flows were measured: 50 ms, above a LAN round trip and the grant
   * delays measured on loopback.
   */
  public static final double AUTO_BETA_START_SECONDS = 0.05;

  /**
   * Least β, seconds, a coordinator plans with while {@link Settings#BETA} is {@code auto}: a
   * measured β below it is not adopted (this value is planned with instead). 50 ms, the start
   * value. Plans on a smaller β cut a pair's bytes into more steps: on a network as fast as its
   * round trip (β of a few ms) the schedulers split blocks of a few hundred ms, every piece a
   * grant, a poll answer and a step report on the driver, for no measured gain in the stage's
   * makespan (docs/benchmarks/coordinator-scale.md, "β auto on a driver that ran a stage before").
   * A β set explicitly is planned with as configured, however small.
   */
  public static final double AUTO_BETA_FLOOR_SECONDS = AUTO_BETA_START_SECONDS;

  /**
   * Fewest measured flows (gated flows for β) before an {@code auto} β or k is replaced by the
   * measured one: 20, enough for the medians of {@link
   * io.wanshuffle.spark.measure.NetworkEstimator} to be stable against a few slow flows.
   */
  public static final int AUTO_MIN_FLOWS = 20;

  /**
   * With {@link Settings#GATE_MIN_BYTES} = {@value Settings#AUTO}, a read is gated when the setup
   * delays of its steps are at most 1 / this of the read's time in them: its bytes at the base
   * speed are at least this many times (steps x β).
   */
  static final int AUTO_SETUP_SHARE_INVERSE = 4;

  /**
   * Each declared setting's value, checked at start-up (the algorithm as the registry knows it).
   */
  private final Map<ConfigEntry<?>, Object> values = new IdentityHashMap<>();

  /** Each declared setting's text as given (the default's when unset), for messages. */
  private final Map<ConfigEntry<?>, String> texts = new IdentityHashMap<>();

  private final PlatformRates rates;
  private final double betaSeconds;
  private final long flowRateCap;

  private WanShuffleConf(SparkConf c, Collection<String> algorithms) {
    String algorithm = algorithm(c, algorithms);
    for (ConfigEntry<?> e : Settings.all()) {
      values.put(e, e.get(c));
      texts.put(e, e.text(c));
    }
    values.put(Settings.ALGORITHM, algorithm);
    checkPlanningFallback(algorithms);
    rates = PlatformRates.from(c);
    rates.incommensurateWarning(c).ifPresent(LOG::warn);
    Choice<Long> beta = get(Settings.BETA);
    betaSeconds = beta.is(Settings.AUTO) ? AUTO_BETA_START_SECONDS : beta.value() / 1000.0;
    Choice<Long> cap = get(Settings.FLOW_RATE_CAP);
    flowRateCap = cap.is("off") ? 0 : cap.is("base") ? rates.baseSpeed() : cap.value();
    if (get(Settings.TOPOLOGY_FILE).isPresent()) {
      for (ConfigEntry<?> e : List.of(Settings.K, Settings.DELTA)) {
        if (e.isSet(c) && !(e == Settings.K && get(Settings.K).is(Settings.AUTO))) {
          throw new ConfigValueException(
              e.key(),
              e.text(c),
              "set either this or "
                  + Settings.TOPOLOGY_FILE.key()
                  + ", not both: with a topology file k and δ follow from its rates");
        }
      }
    }
    for (String key : undeclaredKeys(c)) {
      LOG.warn(
          "unknown configuration key {} = '{}' is ignored; known keys: {}",
          key,
          c.get(key),
          String.join(", ", Settings.keys()));
    }
  }

  /**
   * The keys under {@value Settings#PREFIX} that no setting declares: most likely misspellings,
   * whose intended setting silently keeps its default.
   *
   * @param conf the Spark configuration
   * @return the undeclared keys set in {@code conf}, sorted
   */
  static List<String> undeclaredKeys(SparkConf conf) {
    Set<String> known = Set.copyOf(Settings.keys());
    List<String> unknown = new ArrayList<>();
    for (scala.Tuple2<String, String> kv : conf.getAllWithPrefix(Settings.PREFIX)) {
      String key = Settings.PREFIX + kv._1();
      if (!known.contains(key)) {
        unknown.add(key);
      }
    }
    return unknown.stream().sorted().toList();
  }

  /**
   * @return the algorithm set (lower case), else {@code auto} when the registry has it, else {@code
   *     oggp}
   * @throws ConfigValueException if it is neither {@value Settings#NONE} nor in the registry
   */
  private static String algorithm(SparkConf c, Collection<String> algorithms) {
    if (!Settings.ALGORITHM.isSet(c)) {
      return algorithms.contains("auto") || !algorithms.contains("oggp")
          ? Settings.ALGORITHM.get(c)
          : "oggp";
    }
    String a = Settings.ALGORITHM.get(c);
    if (!a.equals(Settings.NONE) && !algorithms.contains(a)) {
      List<String> known = new ArrayList<>(algorithms);
      known.add(Settings.NONE);
      throw new ConfigValueException(
          Settings.ALGORITHM.key(),
          Settings.ALGORITHM.text(c),
          "unknown algorithm; known: " + String.join(", ", known));
    }
    return a;
  }

  /**
   * Checks that {@link Settings#PLANNING_FALLBACK} is {@value Settings#GREEDY_FALLBACK} or a
   * registered algorithm other than {@code exact}.
   *
   * @throws ConfigValueException otherwise
   */
  private void checkPlanningFallback(Collection<String> algorithms) {
    String f = get(Settings.PLANNING_FALLBACK);
    String given = text(Settings.PLANNING_FALLBACK);
    if (!f.equals(Settings.GREEDY_FALLBACK) && !algorithms.contains(f)) {
      List<String> known = new ArrayList<>();
      known.add(Settings.GREEDY_FALLBACK);
      known.addAll(algorithms);
      throw new ConfigValueException(
          Settings.PLANNING_FALLBACK.key(),
          given,
          "unknown algorithm; known: " + String.join(", ", known));
    }
    if (f.equals("exact")) {
      throw new ConfigValueException(
          Settings.PLANNING_FALLBACK.key(),
          given,
          "exact is for tiny instances only; a fallback must be fast (e.g. greedy)");
    }
  }

  /**
   * Reads and validates every {@value Settings#PREFIX} key.
   *
   * @param conf the Spark configuration
   * @return the validated configuration
   * @throws ConfigValueException naming the first wrong key and its value
   */
  public static WanShuffleConf from(SparkConf conf) {
    return new WanShuffleConf(conf, Algorithms.names());
  }

  /**
   * Reads and validates every {@value Settings#PREFIX} key, accepting the given algorithm names
   * (for an embedding that supplies its own {@code StepScheduler}, and for tests).
   *
   * @param conf the Spark configuration
   * @param algorithms accepted algorithm names besides {@value Settings#NONE}, lower case
   * @return the validated configuration
   * @throws ConfigValueException naming the first wrong key and its value
   */
  public static WanShuffleConf from(SparkConf conf, Collection<String> algorithms) {
    return new WanShuffleConf(conf, algorithms);
  }

  /**
   * Reads a setting: the value set, else the default, as checked at start-up. {@link
   * Settings#ALGORITHM} reads as the algorithm the coordinator runs (lower case; {@code oggp} when
   * unset and the registry has no {@code auto}).
   *
   * @param setting a setting declared in {@link Settings}
   * @param <T> the type of its value
   * @return its value (an {@link java.util.Optional} for a setting without a default)
   * @throws IllegalArgumentException if {@code setting} is not declared in {@link Settings}
   */
  @SuppressWarnings("unchecked")
  public <T> T get(ConfigEntry<T> setting) {
    if (!values.containsKey(setting)) {
      throw new IllegalArgumentException(setting.key() + " is not declared in Settings");
    }
    return (T) values.get(setting);
  }

  /**
   * @param setting a setting declared in {@link Settings}
   * @return its value as given, else its default's text, else the empty string (for messages that
   *     echo a value)
   * @throws IllegalArgumentException if {@code setting} is not declared in {@link Settings}
   */
  public String text(ConfigEntry<?> setting) {
    String t = texts.get(setting);
    if (t == null) {
      throw new IllegalArgumentException(setting.key() + " is not declared in Settings");
    }
    return t;
  }

  /**
   * @return true unless the algorithm is {@value Settings#NONE}
   */
  public boolean gated() {
    return !get(Settings.ALGORITHM).equals(Settings.NONE);
  }

  /**
   * @return whether the shared links' windows move with their flows ({@code
   *     spark.wanshuffle.window=adaptive}, gated, pipelined steps); false: every link's window is
   *     its capacity in flows
   */
  public boolean adaptiveWindows() {
    return gated()
        && Settings.ADAPTIVE.equals(get(Settings.WINDOW))
        && !Settings.BARRIER.equals(get(Settings.STEP_MODE));
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
   * @return backbone rate, bytes/s: {@link Settings#BACKBONE_RATE}'s, or its start value when
   *     {@code auto}
   */
  public long backboneRate() {
    return rates.backboneRate();
  }

  /**
   * @param host a host name
   * @return the host's NIC rate, bytes/s: its own in {@link Settings#NIC_RATES}, else {@link
   *     Settings#NIC_RATE}'s, or its start value when {@code auto}
   */
  public long nicRate(String host) {
    return rates.nicRate(host);
  }

  /**
   * @return β, setup delay per step, seconds: the configured value, or {@link
   *     #AUTO_BETA_START_SECONDS} when {@link Settings#BETA} is {@code auto}
   */
  public double betaSeconds() {
    return betaSeconds;
  }

  /**
   * @return true when {@link Settings#BETA} is {@code auto} (set so, or unset): the coordinator
   *     replaces {@link #betaSeconds()} by the measured β once it measured {@link #AUTO_MIN_FLOWS}
   *     flows
   */
  public boolean betaAuto() {
    return get(Settings.BETA).is(Settings.AUTO);
  }

  /**
   * @return true when the coordinator re-derives k, the base speed and δ from measured rates:
   *     {@link Settings#K} is {@code auto} (set so, or unset) and {@link Settings#BACKBONE_RATE} or
   *     {@link Settings#NIC_RATE} is {@code auto} (set so, or unset); a rate set explicitly stays
   *     as configured, and with both set k is the base-speed rule's on them
   */
  public boolean platformAuto() {
    return get(Settings.K).is(Settings.AUTO)
        && (get(Settings.BACKBONE_RATE).is(Settings.AUTO)
            || get(Settings.NIC_RATE).is(Settings.AUTO));
  }

  /**
   * @return per-flow rate cap in bytes/s ({@link Settings#FLOW_RATE_CAP}; {@code base} is the base
   *     speed), 0 when off
   */
  public long flowRateCap() {
    return flowRateCap;
  }

  /**
   * The bytes below which a task's cross-cluster read of one shuffle is not gated ({@link
   * Settings#GATE_MIN_BYTES}). A size set there is the answer for every read (0 gates every read
   * with cross-cluster blocks). With {@value Settings#AUTO}: the receiver takes at most δ(receiver)
   * flows at once (KPBS's δ-port rule, GGP/OGGP paper sec. 2), so a read from s source hosts needs
   * at least ceil(s / δ) steps and adds at least that many setup delays β; it is gated when its
   * bytes at the base speed b last at least {@value #AUTO_SETUP_SHARE_INVERSE} times that setup,
   * i.e. the threshold is {@value #AUTO_SETUP_SHARE_INVERSE} x ceil(s / δ) x β x b bytes (with the
   * defaults on 100 Mbit/s NICs, β = 50 ms: 2.5 MB per step, 7.5 MB for a read from 3 hosts).
   * Smaller reads cost more in registrations and step set-ups than scheduling them saves
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
    Choice<Long> set = get(Settings.GATE_MIN_BYTES);
    if (!set.is(Settings.AUTO)) {
      return set.value();
    }
    int d = Math.max(1, receiverPorts);
    long steps = (Math.max(1, sourceHosts) + d - 1) / d;
    return Math.round(
        Math.min(Long.MAX_VALUE, AUTO_SETUP_SHARE_INVERSE * steps * betaSeconds * baseSpeed));
  }

  @Override
  public String toString() {
    boolean predicted = get(Settings.STEP_HANDOVER).equals(Settings.PREDICTED);
    return "wan-shuffle[algorithm="
        + get(Settings.ALGORITHM)
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
        + get(Settings.STEP_MODE)
        + ", hand-over="
        + get(Settings.STEP_HANDOVER)
        + (predicted && !get(Settings.STEP_PROGRESS) ? " (no progress)" : "")
        + ", flow cap="
        + flowRateCap
        + " B/s, gate min bytes="
        + (get(Settings.GATE_MIN_BYTES).is(Settings.AUTO)
            ? Settings.AUTO + " (" + gateMinBytes(1, "") + " B per step)"
            : get(Settings.GATE_MIN_BYTES).value() + " B")
        + ", planning budget="
        + get(Settings.PLANNING_BUDGET)
        + " ms then "
        + get(Settings.PLANNING_FALLBACK)
        + "]";
  }
}
