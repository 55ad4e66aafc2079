package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FairSplitTest {
  private static FairSplit.Claim claim(String app, double weight, int flows) {
    return new FairSplit.Claim(app, weight, flows);
  }

  @Test
  void anApplicationAloneGetsTheWholeWindowWhateverItClaims() {
    assertArrayEquals(new int[] {10}, FairSplit.split(10, List.of(claim("a", 1, 3))));
    assertArrayEquals(new int[] {10}, FairSplit.split(10, List.of(claim("a", 5, 100))));
    assertArrayEquals(new int[] {0}, FairSplit.split(0, List.of(claim("a", 1, 3))));
    assertArrayEquals(new int[0], FairSplit.split(10, List.of()));
  }

  /**
   * A window of fewer flows than applications: an application already crossing the link keeps it
   * against one that came later, whatever their names; equal starts fall back to the names.
   */
  @Test
  void fewerFlowsThanApplicationsGoToTheEarliestDemand() {
    FairSplit.Claim late = new FairSplit.Claim("a", 1, 5, 2_000);
    FairSplit.Claim early = new FairSplit.Claim("b", 1, 5, 1_000);
    assertArrayEquals(new int[] {0, 1}, FairSplit.split(1, List.of(late, early)));
    assertArrayEquals(
        new int[] {1, 0},
        FairSplit.split(1, List.of(new FairSplit.Claim("a", 1, 5, 1_000), early)),
        "same start: the lowest name");
    assertArrayEquals(
        new int[] {1, 0},
        FairSplit.split(1, List.of(new FairSplit.Claim("a", 2, 5, 2_000), early)),
        "the heavier first, whenever it came");
  }

  @Test
  void equalWeightsSplitEvenlyTheRemainderToTheLowestNames() {
    assertArrayEquals(
        new int[] {5, 5}, FairSplit.split(10, List.of(claim("a", 1, 50), claim("b", 1, 50))));
    assertArrayEquals(
        new int[] {4, 3, 3},
        FairSplit.split(10, List.of(claim("a", 1, 50), claim("b", 1, 50), claim("c", 1, 50))));
    assertArrayEquals(
        new int[] {3, 4, 3},
        FairSplit.split(10, List.of(claim("b", 1, 50), claim("a", 1, 50), claim("c", 1, 50))),
        "the same shares whatever the order of the claims");
  }

  @Test
  void weightsSplitInProportionWithDemandBeyondTheWindow() {
    assertArrayEquals(
        new int[] {6, 3}, FairSplit.split(9, List.of(claim("a", 2, 50), claim("b", 1, 50))));
    assertArrayEquals(
        new int[] {3, 3, 6},
        FairSplit.split(12, List.of(claim("a", 1, 50), claim("b", 1, 50), claim("c", 2, 50))));
  }

  @Test
  void anApplicationWantingLessLeavesTheRestToTheOthers() {
    assertArrayEquals(
        new int[] {2, 8}, FairSplit.split(10, List.of(claim("a", 1, 2), claim("b", 1, 100))));
    assertArrayEquals(
        new int[] {2, 4, 4},
        FairSplit.split(10, List.of(claim("a", 5, 2), claim("b", 1, 100), claim("c", 1, 100))),
        "a heavy application capped at what it wants");
  }

  @Test
  void whatNobodyClaimsIsHandedOutByWeight() {
    int[] s = FairSplit.split(10, List.of(claim("a", 1, 2), claim("b", 1, 3)));
    assertEquals(10, s[0] + s[1]);
    assertArrayEquals(new int[] {5, 5}, s);
  }

  @Test
  void everyApplicationWithDemandGetsAFlowWhenTheWindowHasAsMany() {
    int[] s =
        FairSplit.split(3, List.of(claim("a", 100, 50), claim("b", 1, 50), claim("c", 1, 50)));
    assertArrayEquals(new int[] {1, 1, 1}, s);
    int[] more =
        FairSplit.split(4, List.of(claim("a", 100, 50), claim("b", 1, 50), claim("c", 1, 50)));
    assertArrayEquals(new int[] {2, 1, 1}, more);
  }

  @Test
  void aWindowSmallerThanTheApplicationsGoesToTheHeaviestThenTheLowestNames() {
    assertArrayEquals(
        new int[] {1, 1, 0},
        FairSplit.split(2, List.of(claim("c", 1, 5), claim("b", 1, 5), claim("a", 0.5, 5))),
        "c and b weigh 1, a 0.5: one flow each for b and c");
    assertArrayEquals(
        new int[] {0, 1, 0},
        FairSplit.split(1, List.of(claim("c", 1, 5), claim("b", 1, 5), claim("a", 0.5, 5))),
        "one flow: b, the lowest name of the heaviest");
  }

  @Test
  void sharesSumToTheWindowAndDoNotDependOnTheClaimsOrder() {
    Random r = new Random(55);
    for (int trial = 0; trial < 500; trial++) {
      int n = 1 + r.nextInt(6);
      int window = r.nextInt(40);
      List<FairSplit.Claim> claims = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        claims.add(claim("app" + i, 0.25 + r.nextInt(8) * 0.5, 1 + r.nextInt(15)));
      }
      int[] s = FairSplit.split(window, claims);
      assertEquals(window, Arrays.stream(s).sum(), "every flow of the window is handed out");
      for (int i = 0; i < n; i++) {
        assertTrue(s[i] >= (window >= n ? 1 : 0), "at least one flow when the window allows");
      }
      List<FairSplit.Claim> shuffled = new ArrayList<>(claims);
      Collections.shuffle(shuffled, r);
      int[] t = FairSplit.split(window, shuffled);
      for (int i = 0; i < n; i++) {
        assertEquals(s[i], t[shuffled.indexOf(claims.get(i))], "same share in any order");
      }
    }
  }

  /** Open flows are never preempted: a share below them is raised, the others pay for it. */
  @Test
  void noShareFallsBelowTheFlowsItsApplicationHolds() {
    FairSplit.Claim x = new FairSplit.Claim("x", 1, 2, 5, 2);
    FairSplit.Claim y = new FairSplit.Claim("y", 1, 2, 9, 0);
    assertArrayEquals(
        new int[] {2, 0}, FairSplit.split(2, List.of(x, y)), "x's two flows open: y waits");
    assertArrayEquals(
        new int[] {2, 2},
        FairSplit.split(4, List.of(new FairSplit.Claim("x", 1, 4, 5, 2), claim("y", 1, 4))),
        "held within the fair split: as without");
    FairSplit.Claim first = new FairSplit.Claim("a", 1, 1, 1, 0);
    FairSplit.Claim holding = new FairSplit.Claim("b", 1, 1, 9, 1);
    assertArrayEquals(
        new int[] {0, 1},
        FairSplit.split(1, List.of(first, holding)),
        "one flow, first in the order to a, but b's flow is still on it");
    assertArrayEquals(
        new int[] {2, 1},
        FairSplit.split(
            2, List.of(new FairSplit.Claim("x", 1, 2, 5, 2), new FairSplit.Claim("y", 1, 2, 9, 1))),
        "open flows beyond the window (an old view): each keeps its own, none gets more");
    Random r = new Random(56);
    for (int trial = 0; trial < 500; trial++) {
      int n = 1 + r.nextInt(5);
      int window = r.nextInt(12);
      List<FairSplit.Claim> claims = new ArrayList<>();
      int heldAll = 0;
      for (int i = 0; i < n; i++) {
        int flows = 1 + r.nextInt(6);
        int held = heldAll < window ? r.nextInt(Math.min(flows, window - heldAll) + 1) : 0;
        heldAll += held;
        claims.add(new FairSplit.Claim("app" + i, 0.5 + r.nextInt(4), flows, r.nextInt(3), held));
      }
      int[] s = FairSplit.split(window, claims);
      assertEquals(window, Arrays.stream(s).sum(), "open flows within the window: all handed out");
      for (int i = 0; i < n; i++) {
        assertTrue(s[i] >= claims.get(i).held(), "trial " + trial + ": " + Arrays.toString(s));
      }
    }
  }

  @Test
  void badClaimsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> claim("a", 0, 1));
    assertThrows(IllegalArgumentException.class, () -> claim("a", 1, 0));
    assertThrows(IllegalArgumentException.class, () -> claim("a", Double.NaN, 1));
  }
}
