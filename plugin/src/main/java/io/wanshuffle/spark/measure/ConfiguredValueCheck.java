package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Compares the configured β and link rates with what was measured, and says once per key where they
 * disagree by more than {@value #TOLERANCE} (as a fraction of the configured value). A link's
 * configured rate is its capacity in flows times the base speed ({@link LinkModel}); its key is
 * {@code spark.wanshuffle.nic.rate} / {@code nic.rates} for a NIC and {@code backbone.rate} for a
 * backbone side, or the topology file's key when the links come from a file. Only links measured
 * over at least {@value #MIN_FLOWS} flows count. Not thread-safe.
 */
public final class ConfiguredValueCheck {
  /** Largest disagreement, as a fraction of the configured value, that passes. */
  public static final double TOLERANCE = 0.25;

  /** Fewest flows a link's rate must be measured over to be compared. */
  public static final int MIN_FLOWS = 20;

  /**
   * One disagreement.
   *
   * @param key the configuration key
   * @param configured its value, in {@code unit}
   * @param measured what was measured, in {@code unit}
   * @param unit {@code s} or {@code B/s}
   * @param subject what was measured (a link name, or {@code beta})
   */
  public record Contradiction(
      String key, double configured, double measured, String unit, String subject) {
    /**
     * @return the warning's text, naming the key, the configured and the measured value
     */
    public String message() {
      return String.format(
          Locale.ROOT,
          "wan-shuffle: %s = %s %s is contradicted by measurement: %s measured %s %s (more than"
              + " %.0f %% apart)",
          key,
          fmt(configured),
          unit,
          subject,
          fmt(measured),
          unit,
          100 * TOLERANCE);
    }

    private static String fmt(double v) {
      return v >= 1000
          ? String.format(Locale.ROOT, "%.0f", v)
          : String.format(Locale.ROOT, "%.3f", v);
    }
  }

  private final LinkModel model;
  private final double configuredBeta;
  private final String betaKey;
  private final String nicKey;
  private final String backboneKey;
  private final String topologyKey;
  private final Set<String> warned = new HashSet<>();

  /**
   * @param model the links and their configured capacities
   * @param configuredBeta the configured β, seconds; 0 when not configured ({@code auto}): not
   *     checked
   * @param betaKey the key of β
   * @param nicKey the key of the NICs' rates, or null when they are not configured ({@code auto}):
   *     not checked
   * @param backboneKey the key of the backbone's rate, or null when it is not configured ({@code
   *     auto}): not checked
   * @param topologyKey the key of the topology file, or null when the links come from the rate keys
   */
  public ConfiguredValueCheck(
      LinkModel model,
      double configuredBeta,
      String betaKey,
      String nicKey,
      String backboneKey,
      String topologyKey) {
    this.model = model;
    this.configuredBeta = configuredBeta;
    this.betaKey = betaKey;
    this.nicKey = nicKey;
    this.backboneKey = backboneKey;
    this.topologyKey = topologyKey;
  }

  /**
   * @param est the current measurement
   * @return the contradictions of keys not reported before (each key at most once over the
   *     checker's life)
   */
  public List<Contradiction> check(NetworkEstimate est) {
    List<Contradiction> out = new ArrayList<>();
    if (est.hasBeta() && configuredBeta > 0 && apart(configuredBeta, est.betaSeconds())) {
      report(out, new Contradiction(betaKey, configuredBeta, est.betaSeconds(), "s", "beta"));
    }
    for (int l = 0; l < model.linkCount(); l++) {
      String name = model.name(l);
      LinkRate r = est.rates().get(name);
      if (r == null || r.flows() < MIN_FLOWS) {
        continue;
      }
      double configured = (double) model.capacity(l) * model.baseSpeed();
      if (apart(configured, r.bytesPerSecond())) {
        String key = topologyKey != null ? topologyKey : model.isNic(l) ? nicKey : backboneKey;
        if (key != null
            && (topologyKey != null || model.isNic(l) || name.startsWith("backbone."))) {
          report(out, new Contradiction(key, configured, r.bytesPerSecond(), "B/s", name));
        }
      }
    }
    return out;
  }

  private void report(List<Contradiction> out, Contradiction c) {
    if (warned.add(c.key())) {
      out.add(c);
    }
  }

  private static boolean apart(double configured, double measured) {
    return Math.abs(measured - configured) > TOLERANCE * configured;
  }
}
