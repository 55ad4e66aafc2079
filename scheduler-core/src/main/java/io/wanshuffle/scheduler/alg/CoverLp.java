package io.wanshuffle.scheduler.alg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.PivotSelectionRule;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

/**
 * The transmission-time linear program of a set S of matchings: minimise Σ d_s over s ∈ S subject
 * to Σ_{s ∋ e} d_s ≥ w(e) for every edge e and d ≥ 0 (how long each matching runs so that every
 * edge receives its amount). Solved with Apache Commons Math's {@link SimplexSolver} (Bland's rule,
 * so degenerate programs cannot cycle).
 */
final class CoverLp {
  private final double[] weight;

  /**
   * @param weight w(e) per edge, seconds (best scaled to about 1)
   */
  CoverLp(double[] weight) {
    this.weight = weight;
  }

  /**
   * @param masks edge masks of all matchings (bit e = edge e)
   * @param use which matchings are in S (indices into masks); together they cover every edge
   * @param useCount how many entries of {@code use} are meaningful, ≥ 1
   * @return an optimal d per matching, indexed like {@code masks} (0 for matchings not in S); its
   *     sum is LP(S)
   */
  double[] solve(int[] masks, int[] use, int useCount) {
    double[] ones = new double[useCount];
    Arrays.fill(ones, 1.0);
    List<LinearConstraint> constraints = new ArrayList<>(weight.length);
    for (int e = 0; e < weight.length; e++) {
      double[] row = new double[useCount];
      for (int x = 0; x < useCount; x++) {
        if ((masks[use[x]] & (1 << e)) != 0) {
          row[x] = 1.0;
        }
      }
      constraints.add(new LinearConstraint(row, Relationship.GEQ, weight[e]));
    }
    PointValuePair p =
        new SimplexSolver()
            .optimize(
                new LinearObjectiveFunction(ones, 0),
                new LinearConstraintSet(constraints),
                GoalType.MINIMIZE,
                new NonNegativeConstraint(true),
                PivotSelectionRule.BLAND);
    double[] d = new double[masks.length];
    double[] point = p.getPointRef();
    for (int x = 0; x < useCount; x++) {
      d[use[x]] = Math.max(0.0, point[x]);
    }
    return d;
  }

  /**
   * @return Σ d
   */
  static double sum(double[] d) {
    double s = 0;
    for (double v : d) {
      s += v;
    }
    return s;
  }
}
