package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.StepScheduler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The registry of step schedulers by the names the CLI ({@code --algorithm}) and the plugin
 * configuration accept. Names are lower case; lookup ignores case.
 */
public final class Algorithms {
  private static final Map<String, Supplier<StepScheduler>> BY_NAME = new LinkedHashMap<>();

  static {
    // One line per algorithm; keep "auto" first (the default).
    BY_NAME.put(Auto.NAME, Auto::new);
    BY_NAME.put(Ggp.NAME, Ggp::new);
    BY_NAME.put(Oggp.NAME, Oggp::new);
    BY_NAME.put(Dggp.NAME, Dggp::new);
    BY_NAME.put(HeuristicOnWeights.NAME, HeuristicOnWeights::new);
    BY_NAME.put(HeuristicOnDegrees.NAME, HeuristicOnDegrees::new);
    BY_NAME.put(ExactScheduler.NAME, ExactScheduler::new);
    BY_NAME.put("liquid", LiquidStepScheduler::new);
  }

  private Algorithms() {}

  /**
   * @param name an algorithm name, e.g. {@code auto}, {@code oggp}
   * @return a scheduler instance
   * @throws IllegalArgumentException for an unknown name; the message lists the known ones
   */
  public static StepScheduler byName(String name) {
    Supplier<StepScheduler> s = name == null ? null : BY_NAME.get(name.toLowerCase(Locale.ROOT));
    if (s == null) {
      throw new IllegalArgumentException(
          "unknown algorithm '" + name + "'; known: " + String.join(", ", names()));
    }
    return s.get();
  }

  /**
   * @return the known names, default first
   */
  public static List<String> names() {
    return List.copyOf(BY_NAME.keySet());
  }
}
