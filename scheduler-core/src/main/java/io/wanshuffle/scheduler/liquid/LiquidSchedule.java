package io.wanshuffle.scheduler.liquid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * A schedule of a unit-size {@link Traffic}: a partition of its transfers into time frames, each a
 * simultaneous subset (liquid-schedules paper, sec. 3.1). It is <em>liquid</em> when it has as many
 * frames as the traffic's duration Λ.
 *
 * @param traffic the traffic scheduled
 * @param frames transfer ids per time frame, in execution order
 * @param lowerBound Λ(X), the duration of the traffic (no schedule is shorter)
 * @param optimal true when no shorter schedule exists: the schedule is liquid, or the exact search
 *     proved that every shorter length is impossible
 */
public record LiquidSchedule(Traffic traffic, List<int[]> frames, int lowerBound, boolean optimal) {
  /** Copies the frames. */
  public LiquidSchedule {
    List<int[]> c = new ArrayList<>();
    for (int[] f : frames) {
      c.add(f.clone());
    }
    frames = List.copyOf(c);
  }

  /**
   * @return #(α): the number of time frames
   */
  public int length() {
    return frames.size();
  }

  /**
   * @return true when the length equals the traffic's duration Λ
   */
  public boolean isLiquid() {
    return frames.size() == traffic.duration();
  }

  /**
   * @return transfer names per frame, for output
   */
  public List<List<String>> frameNames() {
    List<List<String>> out = new ArrayList<>();
    for (int[] f : frames) {
      List<String> n = new ArrayList<>();
      for (int t : f) {
        n.add(traffic.name(t));
      }
      out.add(n);
    }
    return out;
  }

  /**
   * Checks that the frames partition the traffic and that each frame is simultaneous.
   *
   * @throws IllegalStateException naming the frame and transfer that break the rule
   */
  public void validate() {
    BitSet seen = new BitSet(traffic.size());
    for (int f = 0; f < frames.size(); f++) {
      BitSet frame = new BitSet();
      for (int t : frames.get(f)) {
        if (t < 0 || t >= traffic.size()) {
          throw new IllegalStateException("frame " + f + ": no transfer " + t);
        }
        if (seen.get(t)) {
          throw new IllegalStateException(
              "frame " + f + ": transfer " + traffic.name(t) + " is scheduled twice");
        }
        seen.set(t);
        frame.set(t);
      }
      if (frame.isEmpty()) {
        throw new IllegalStateException("frame " + f + " is empty");
      }
      if (!traffic.isSimultaneous(frame)) {
        throw new IllegalStateException(
            "frame " + f + " " + Arrays.toString(frames.get(f)) + " has two transfers on one link");
      }
    }
    if (seen.cardinality() != traffic.size()) {
      seen.flip(0, traffic.size());
      throw new IllegalStateException(
          "transfer " + traffic.name(seen.nextSetBit(0)) + " is in no frame");
    }
  }
}
