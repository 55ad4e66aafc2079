package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.Objects;

/**
 * What a plan is made with, as one immutable snapshot: the links flows cross with each link's
 * capacity in flows ({@link LinkModel}, copied into arrays by {@link LinkFacts} for the hot paths),
 * β, the base speed and the step scheduler's name. The platform parameters follow the DGGP paper
 * (Jeannot and Wagner, sec. 2.2-2.3): base speed b = the gcd of the rates, k = backbone rate / b,
 * δ(h) = min(k, NIC(h) / b); β is the setup delay of a step (GGP/OGGP paper, Cohen, Jeannot, Padoy,
 * Wagner, sec. 2). The coordinator holds the snapshot in force in one place, {@link
 * LiveParameters}, which replaces it whole when measurements change it; a planning round reads it
 * once and plans with that snapshot throughout.
 *
 * @param links the links of every route and their capacities in flows
 * @param facts the links' capacities and kinds by id, copied from {@code links}
 * @param betaSeconds β, the setup delay of a step, seconds, at least 0
 * @param algorithm the step scheduler's name ({@code spark.wanshuffle.algorithm})
 */
public record PlanningParameters(
    LinkModel links, LinkFacts facts, double betaSeconds, String algorithm) {

  /**
   * @throws NullPointerException if {@code links}, {@code facts} or {@code algorithm} is null
   * @throws IllegalArgumentException if β is negative or not a number, or {@code facts} are not of
   *     {@code links}
   */
  public PlanningParameters {
    Objects.requireNonNull(links, "links");
    Objects.requireNonNull(facts, "facts");
    Objects.requireNonNull(algorithm, "algorithm");
    if (!(betaSeconds >= 0)) {
      throw new IllegalArgumentException("beta must be >= 0 s, got " + betaSeconds);
    }
    if (!facts.of(links)) {
      throw new IllegalArgumentException("link facts of another link model");
    }
  }

  /**
   * @param links the links and their capacities in flows
   * @param betaSeconds β, seconds
   * @param algorithm the step scheduler's name
   * @return the snapshot
   */
  public static PlanningParameters of(LinkModel links, double betaSeconds, String algorithm) {
    return new PlanningParameters(links, new LinkFacts(links), betaSeconds, algorithm);
  }

  /**
   * @return the base speed b, bytes/s of one flow
   */
  public long baseSpeed() {
    return links.baseSpeed();
  }

  /**
   * @param seconds a new β, seconds
   * @return this snapshot with that β
   */
  PlanningParameters withBeta(double seconds) {
    return new PlanningParameters(links, facts, seconds, algorithm);
  }

  /**
   * @param link a link id
   * @param window the flows the link is admitted from now on, at least 1
   * @return this snapshot with that window ({@link LinkFacts#withWindow})
   */
  public PlanningParameters withWindow(int link, int window) {
    return new PlanningParameters(links, facts.withWindow(link, window), betaSeconds, algorithm);
  }

  /**
   * @param caps per link id, this application's share of its window, or -1 (the whole window)
   * @return this snapshot with those shares ({@link LinkFacts#withShares})
   */
  public PlanningParameters withShares(int[] caps) {
    return new PlanningParameters(links, facts.withShares(caps), betaSeconds, algorithm);
  }

  /**
   * @param model a new link model
   * @return this snapshot on that model, every window its link's capacity
   */
  PlanningParameters withLinks(LinkModel model) {
    return of(model, betaSeconds, algorithm);
  }
}
