package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.CoordinatorLogger;
import io.wanshuffle.spark.coordinator.event.Listeners;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.measure.TransferPrediction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;

/**
 * Remembers which stage attempts were predicted ({@link #markPredicted}) and decides, once per
 * stage attempt, whether its cross-site reads are gated: only when the transfer phase predicted as
 * the plugin runs the plan beats the one predicted as Spark's default by more than the margin of
 * {@code spark.wanshuffle.gate.margin} ({@link io.wanshuffle.spark.measure.TransferPrediction}). A
 * stage without both predictions stays gated. Not thread-safe: the coordinator calls it under its
 * lock.
 */
public final class StageGate {
  private static final Logger LOG = CoordinatorLogger.LOG;

  /**
   * A stage's decision.
   *
   * @param gated true: its reads wait for grants; false: they fetch at once, as Spark does
   * @param scheduledSeconds its transfer phase predicted as scheduled, seconds (NaN: unknown)
   * @param defaultSeconds its transfer phase predicted as Spark's default, seconds (NaN: unknown)
   * @param reason why, for the log and the capture
   */
  public record Decision(
      boolean gated, double scheduledSeconds, double defaultSeconds, String reason) {}

  private final double margin;
  private final Map<StageRef, Decision> decisions = new HashMap<>();
  private final Set<StageRef> predicted = new HashSet<>();

  /**
   * @param margin the fraction the scheduled prediction must save, in [0, 1]; negative: every stage
   *     is gated without a decision
   */
  public StageGate(double margin) {
    this.margin = margin;
  }

  /**
   * @return true when stages are decided on (a margin is set)
   */
  public boolean enabled() {
    return margin >= 0;
  }

  /**
   * Marks a stage attempt as predicted: its transfer phase is predicted once, at its first plan,
   * whether or not stages are decided on.
   *
   * @param stage a stage attempt
   * @return true when it was not predicted yet (since {@link #forget})
   */
  boolean markPredicted(StageRef stage) {
    return predicted.add(stage);
  }

  /**
   * @param stage a stage attempt
   * @return true when it was predicted (since {@link #forget})
   */
  public boolean predicted(StageRef stage) {
    return predicted.contains(stage);
  }

  /**
   * @param stage a stage attempt
   * @return true when it was decided
   */
  public boolean decided(StageRef stage) {
    return decisions.containsKey(stage);
  }

  /**
   * @param stage a stage attempt
   * @return true when it was decided not to gate it
   */
  public boolean ungated(StageRef stage) {
    Decision d = decisions.get(stage);
    return d != null && !d.gated();
  }

  /**
   * Decides a stage and remembers the decision until {@link #forget}.
   *
   * @param stage the stage attempt
   * @param scheduled its transfer phase predicted as scheduled, seconds
   * @param dflt its transfer phase predicted as Spark's default, seconds
   * @return the decision
   */
  public Decision decide(StageRef stage, double scheduled, double dflt) {
    Decision d = rule(margin, scheduled, dflt);
    decisions.put(stage, d);
    return d;
  }

  /**
   * Records, once per stage attempt, the transfer phase predicted on its whole traffic when it was
   * first planned (listeners get {@code onStagePredicted}) and, when stages are decided on, decides
   * each such stage (logged, listeners get {@code onStageGated}).
   *
   * @param predictions a round's predictions of the stages fresh when it read the residual
   * @param live whether a stage attempt still has unreleased demand (others are not recorded)
   * @param listeners told of each prediction and decision
   * @param onUngated called with each stage decided not to gate, right after its decision (its
   *     demands are to be released: its tasks fetch at once)
   * @return true when a stage was ungated
   */
  public boolean decideFresh(
      Map<StageRef, TransferPrediction.Prediction> predictions,
      Predicate<StageRef> live,
      Listeners listeners,
      Consumer<StageRef> onUngated) {
    Map<StageRef, TransferPrediction.Prediction> fresh = new LinkedHashMap<>();
    for (Map.Entry<StageRef, TransferPrediction.Prediction> e : predictions.entrySet()) {
      StageRef st = e.getKey();
      TransferPrediction.Prediction p = e.getValue();
      if (live.test(st) && markPredicted(st)) {
        fresh.put(st, p);
        listeners.fire(l -> l.onStagePredicted(st, p.scheduledSeconds(), p.defaultSeconds()));
      }
    }
    if (!enabled() || fresh.isEmpty()) {
      return false;
    }
    boolean ungated = false;
    for (Map.Entry<StageRef, TransferPrediction.Prediction> e : fresh.entrySet()) {
      StageRef st = e.getKey();
      TransferPrediction.Prediction p = e.getValue();
      Decision dec = decide(st, p.scheduledSeconds(), p.defaultSeconds());
      LOG.info("wan-shuffle stage {}.{} {}", st.stageId(), st.attempt(), dec.reason());
      listeners.fire(
          l ->
              l.onStageGated(
                  st, dec.gated(), dec.scheduledSeconds(), dec.defaultSeconds(), dec.reason()));
      if (!dec.gated()) {
        ungated = true;
        onUngated.accept(st);
      }
    }
    return ungated;
  }

  /**
   * Decides, while it runs, not to gate a stage the network does not hold ({@link StageWaits}): its
   * waiting and later reads fetch at once. Logged; listeners get {@code onStageGated}.
   *
   * @param t the stage and its grants' waits
   * @param listeners told of the decision
   */
  public void ungateTaskBound(StageWaits.TaskBound t, Listeners listeners) {
    Decision before = decisions.get(t.stage());
    Decision d =
        new Decision(
            false,
            before == null ? Double.NaN : before.scheduledSeconds(),
            before == null ? Double.NaN : before.defaultSeconds(),
            t.reason());
    decisions.put(t.stage(), d);
    StageRef st = t.stage();
    LOG.info("wan-shuffle stage {}.{} {}", st.stageId(), st.attempt(), d.reason());
    listeners.fire(
        l -> l.onStageGated(st, false, d.scheduledSeconds(), d.defaultSeconds(), d.reason()));
  }

  /**
   * @param stage a stage attempt that completed
   */
  public void forget(StageRef stage) {
    decisions.remove(stage);
    predicted.remove(stage);
  }

  /**
   * The rule: gated iff scheduled &lt; (1 - margin) x default, or when a prediction is missing.
   *
   * @param margin the fraction to save, in [0, 1]
   * @param scheduled predicted as scheduled, seconds
   * @param dflt predicted as Spark's default, seconds
   * @return the decision with its reason
   */
  public static Decision rule(double margin, double scheduled, double dflt) {
    if (!(scheduled >= 0) || !(dflt > 0)) {
      return new Decision(true, scheduled, dflt, "gated: no prediction");
    }
    boolean pays = scheduled < (1 - margin) * dflt;
    return new Decision(
        pays,
        scheduled,
        dflt,
        String.format(
            Locale.ROOT,
            "%s: predicted %.3f s scheduled against %.3f s as Spark's default (%s %.0f %% faster)",
            pays ? "gated" : "ungated",
            scheduled,
            dflt,
            pays ? "more than" : "not more than",
            100 * margin));
  }
}
