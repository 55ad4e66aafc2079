package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index of {@link Compaction} from a traffic-matrix pair to the steps that carry it: on random
 * sparse schedules of a large matrix, each pair's list holds the steps it was added with, most
 * recent first, whether or not the table had to grow past the entries it expected.
 */
class CompactionPairIndexTest {
  @Test
  void eachPairListsItsStepsMostRecentFirstAndAbsentPairsListNone() {
    for (int expected : new int[] {0, 1, 50, 5000}) {
      Random rnd = new Random(17 + expected);
      long cols = 100_000;
      List<Compaction.MStep> steps = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        steps.add(new Compaction.MStep(new Step(1, List.of(new Transfer(i, i, 1))), steps.size()));
      }
      Compaction.PairIndex index = new Compaction.PairIndex(expected, steps);
      Map<Long, List<Integer>> reference = new HashMap<>();
      for (int e = 0; e < 3000; e++) {
        // a few pairs in many steps, most in one: rows and columns spread over a 100,000-wide
        // matrix
        long pair =
            rnd.nextInt(4) == 0
                ? rnd.nextInt(20)
                : rnd.nextInt(100_000) * cols + rnd.nextInt(100_000);
        Compaction.MStep s = steps.get(rnd.nextInt(steps.size()));
        index.add(pair, s);
        reference.computeIfAbsent(pair, p -> new ArrayList<>()).add(0, s.index);
      }
      for (Map.Entry<Long, List<Integer>> e : reference.entrySet()) {
        List<Integer> listed = new ArrayList<>();
        for (int ent = index.head(e.getKey()); ent >= 0; ent = index.next(ent)) {
          listed.add(index.step(ent).index);
        }
        assertEquals(e.getValue(), listed, "pair " + e.getKey() + ", expected " + expected);
      }
      for (int i = 0; i < 1000; i++) {
        long absent = cols * cols + i;
        assertEquals(-1, index.head(absent));
      }
    }
  }
}
