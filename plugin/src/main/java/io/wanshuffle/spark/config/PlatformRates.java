package io.wanshuffle.spark.config;

import io.wanshuffle.scheduler.BaseSpeed;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;

/**
 * The backbone and NIC rates and the k, δ and base speed they give.
 *
 * <p>By default k, δ and the base speed follow the base-speed rule of the DGGP paper (Jeannot and
 * Wagner, sec. 2.2-2.3, {@link BaseSpeed}): base speed b = gcd(backbone rate, NIC rates), k =
 * backbone / b, δ(h) = min(k, NIC(h) / b). Setting {@link Settings#K} (and optionally {@link
 * Settings#DELTA}) overrides the rule; b is then backbone / k. {@link Settings#K} {@code auto} (the
 * default) starts from the rule; {@code auto} rates (the default) start from {@link
 * #AUTO_NIC_START_RATE} and {@link #AUTO_BACKBONE_START_FLOWS} x the slowest NIC.
 */
final class PlatformRates {
  /**
   * Most flows k or δ may count ({@link BaseSpeed#MAX_FLOWS}). Read here, in a class that calls
   * scheduler-core, so that the shaded jar relocates every reference to it.
   */
  static final int MAX_FLOWS = BaseSpeed.MAX_FLOWS;

  /**
   * Slowest NIC over base speed above which the rates look mistyped (see {@link
   * #incommensurateWarning}).
   */
  static final long INCOMMENSURATE_RATIO = 64;

  /**
   * {@link Settings#NIC_RATE} {@code auto} starts at 100 Mbit/s, bytes/s: low rather than high,
   * because the start base speed sets the executors' {@code gate.minBytes=auto} threshold until the
   * driver measured. A start below the network's rate gates reads of a few MB in the first
   * cross-site shuffle, whose gated flows the driver then measures; a start above it (1 Gbit/s on
   * 100 Mbit/s NICs: 25 MB per step) leaves every read of such a shuffle ungated, and the driver
   * measures nothing it can plan with.
   */
  static final long AUTO_NIC_START_RATE = 12_500_000L;

  /**
   * {@link Settings#BACKBONE_RATE} {@code auto} starts at this many times the slowest NIC rate: the
   * base-speed rule then gives k = 10, as the default rates do.
   */
  static final long AUTO_BACKBONE_START_FLOWS = 10;

  private final long backboneRate;
  private final long defaultNicRate;
  private final Map<String, Long> nicRates;
  private final int k;
  private final int deltaOverride;
  private final long baseSpeed;

  private PlatformRates(
      long backboneRate,
      long defaultNicRate,
      Map<String, Long> nicRates,
      int k,
      int deltaOverride,
      long baseSpeed) {
    this.backboneRate = backboneRate;
    this.defaultNicRate = defaultNicRate;
    this.nicRates = nicRates;
    this.k = k;
    this.deltaOverride = deltaOverride;
    this.baseSpeed = baseSpeed;
  }

  /**
   * Reads the rates, k and δ and applies the base-speed rule where k is not set.
   *
   * @param c the Spark configuration
   * @return the platform's rates and flow limits
   * @throws ConfigValueException naming the first wrong key and its value; for rates whose k would
   *     exceed {@link BaseSpeed#MAX_FLOWS} it names {@link Settings#BACKBONE_RATE}; for a set k
   *     above the backbone's bytes/s (flows under 1 byte/s) it names {@link Settings#K}
   */
  static PlatformRates from(SparkConf c) {
    Choice<Long> nicChoice = Settings.NIC_RATE.get(c);
    long defaultNic = nicChoice.is(Settings.AUTO) ? AUTO_NIC_START_RATE : nicChoice.value();
    Map<String, Long> nics = Settings.NIC_RATES.get(c);
    Choice<Long> backboneChoice = Settings.BACKBONE_RATE.get(c);
    long backbone =
        backboneChoice.is(Settings.AUTO)
            ? AUTO_BACKBONE_START_FLOWS
                * nics.values().stream().mapToLong(Long::longValue).reduce(defaultNic, Math::min)
            : backboneChoice.value();
    int delta = Settings.DELTA.get(c).orElse(0);
    Optional<Integer> setK = Optional.ofNullable(Settings.K.get(c).value());
    if (setK.isPresent()) {
      int k = setK.get();
      if (backbone / k < 1) {
        throw new ConfigValueException(
            Settings.K.key(),
            Settings.K.text(c),
            "more flows than the backbone's "
                + backbone
                + " bytes/s ("
                + Settings.BACKBONE_RATE.key()
                + "): a flow would run at less than 1 byte/s");
      }
      return new PlatformRates(backbone, defaultNic, nics, k, delta, backbone / k);
    }
    long[] all = new long[nics.size() + 1];
    all[0] = defaultNic;
    int i = 1;
    for (long r : nics.values()) {
      all[i++] = r;
    }
    BaseSpeed b;
    try {
      b = BaseSpeed.of(backbone, all, all);
    } catch (IllegalArgumentException e) {
      throw new ConfigValueException(
          Settings.BACKBONE_RATE.key(),
          Settings.BACKBONE_RATE.text(c),
          e.getMessage()
              + " (backbone "
              + backbone
              + " B/s, NICs "
              + Arrays.toString(Arrays.stream(all).distinct().sorted().toArray())
              + " B/s from "
              + Settings.NIC_RATE.key()
              + " and "
              + Settings.NIC_RATES.key()
              + "), or set "
              + Settings.K.key()
              + " directly");
    }
    return new PlatformRates(backbone, defaultNic, nics, b.k(), delta, b.bytesPerSecond());
  }

  /**
   * @return k: most cross-cluster flows open at once (per backbone direction)
   */
  int k() {
    return k;
  }

  /**
   * @return base speed b, bytes/s
   */
  long baseSpeed() {
    return baseSpeed;
  }

  /**
   * @return backbone rate, bytes/s
   */
  long backboneRate() {
    return backboneRate;
  }

  /**
   * @return NIC rate of hosts without a rate of their own, bytes/s
   */
  long defaultNicRate() {
    return defaultNicRate;
  }

  /**
   * @param host a host name
   * @return the host's NIC rate, bytes/s
   */
  long nicRate(String host) {
    return nicRates.getOrDefault(host, defaultNicRate);
  }

  /**
   * @param host a host name
   * @return δ(host), 1..k: the δ set for every host (capped by k), else min(k, NIC(host) / b)
   */
  int delta(String host) {
    if (deltaOverride > 0) {
      return Math.min(k, deltaOverride);
    }
    return (int) Math.max(1, Math.min(k, nicRate(host) / baseSpeed));
  }

  /**
   * A warning when δ is derived and the slowest NIC is more than {@value #INCOMMENSURATE_RATIO}
   * flows of the base speed: the rates then share no large common divisor, as when byte and bit
   * units are mixed ({@code 100mb} is 100 MiB/s), and k and δ count thousands of tiny flows.
   *
   * @param c the Spark configuration the rates were read from (its values are quoted)
   * @return the warning, or empty when the rates look commensurate or δ is set
   */
  Optional<String> incommensurateWarning(SparkConf c) {
    long slowest = defaultNicRate;
    for (long r : nicRates.values()) {
      slowest = Math.min(slowest, r);
    }
    if (deltaOverride > 0 || slowest / baseSpeed <= INCOMMENSURATE_RATIO) {
      return Optional.empty();
    }
    return Optional.of(
        "wan-shuffle: "
            + Settings.BACKBONE_RATE.key()
            + " = '"
            + Settings.BACKBONE_RATE.text(c)
            + "' and "
            + Settings.NIC_RATE.key()
            + " = '"
            + Settings.NIC_RATE.text(c)
            + "'"
            + (nicRates.isEmpty() ? "" : " (and " + Settings.NIC_RATES.key() + ")")
            + " share no large common divisor: base speed "
            + baseSpeed
            + " B/s, k = "
            + k
            + ", the slowest NIC "
            + slowest / baseSpeed
            + " flows; byte and bit units mixed ('100mb' is 100 MiB/s, '100mbit' 12.5 MB/s)?"
            + " Write the rates in one unit, or set "
            + Settings.K.key()
            + " and "
            + Settings.DELTA.key());
  }
}
