package io.wanshuffle.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The η a plan reports against its cost. */
class PlanTest {
  private static Plan plan(double cost, double etaD) {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{cost}});
    Schedule s = new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, cost)))));
    return new Plan(
        new MatrixFile(m, List.of(), List.of()),
        m,
        Platform.onePort(1, 0, 1, 1),
        "test",
        s,
        new LowerBound(etaD, 1, 0),
        null,
        null);
  }

  @Test
  void aBoundAboveTheCostByRoundingOnlyIsReportedAsTheCost() {
    // a cost and a bound that differ by rounding only (the same sums in different orders), as a
    // liquid plan can give them
    Plan p = plan(75.99999999999999, 76.0);
    assertEquals(p.cost(), p.eta(), "cost / η must never print below 1");
    assertEquals(50.0, plan(60.0, 50.0).eta(), "a bound below the cost is kept as it is");
  }

  @Test
  void aCostBelowTheBoundBeyondRoundingIsABug() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> plan(75.9, 76.0).eta());
    assertEquals("algorithm test costs 75.9 s, below the η lower bound 76.0 s", e.getMessage());
  }
}
