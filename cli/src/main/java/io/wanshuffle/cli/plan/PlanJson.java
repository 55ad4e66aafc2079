package io.wanshuffle.cli.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON document {@code plan --format json} prints (one object, Jackson serialises the record
 * components in this order):
 *
 * <pre>
 * {"algorithm": str, "k": int, "beta": num, "cost": num, "lowerBound": num,
 *  "steps": [{"duration": num, "transfers": [{"src": int, "dst": int, "amount": num}]}],
 *  "linkOverloads": int, "bruteForceEstimate": num|null}
 * </pre>
 *
 * Amounts, durations, β, cost and the lower bound are seconds; src/dst are zero-based row and
 * column indices of the matrix. This shape is a contract other tools depend on; {@code
 * linkOverloads} is present with {@code --topology} only; {@code bruteForceEstimate} (η_o, seconds)
 * is null for a matrix of more than 16,384 transfers.
 *
 * @param algorithm the scheduler's name
 * @param k maximum transfers per step
 * @param beta setup delay per step, seconds
 * @param cost Σ (β + duration), seconds
 * @param lowerBound η, seconds
 * @param steps the steps in execution order
 * @param linkOverloads with {@code --topology}: (step, link) pairs over the link's capacity (0 for
 *     {@code liquid}; rack-blind algorithms plan on k and δ only); null (absent) without a topology
 * @param bruteForceEstimate η_o, seconds: Spark's default (all transfers at once, fair sharing of
 *     the NICs and of k on the backbone; Wagner and Jeannot, INRIA RR-5361, sec. 3.1); null when
 *     the matrix has more than 16,384 transfers
 */
public record PlanJson(
    String algorithm,
    int k,
    double beta,
    double cost,
    double lowerBound,
    List<StepJson> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer linkOverloads,
    Double bruteForceEstimate) {

  /**
   * @param duration step duration (without β), seconds
   * @param transfers transfers of the step
   */
  public record StepJson(double duration, List<TransferJson> transfers) {}

  /**
   * @param src zero-based sender (row) index
   * @param dst zero-based receiver (column) index
   * @param amount seconds at base speed
   */
  public record TransferJson(int src, int dst, double amount) {}

  static PlanJson of(Plan p) {
    List<StepJson> steps = new ArrayList<>(p.schedule().stepCount());
    for (Step s : p.schedule().steps()) {
      List<TransferJson> ts = new ArrayList<>(s.transfers().size());
      for (Transfer t : s.transfers()) {
        ts.add(new TransferJson(t.src(), t.dst(), t.amount()));
      }
      steps.add(new StepJson(s.duration(), ts));
    }
    return new PlanJson(
        p.algorithm(),
        p.platform().k(),
        p.platform().beta(),
        p.cost(),
        p.eta(),
        steps,
        p.linkOverloads(),
        p.bruteForceEstimate());
  }
}
