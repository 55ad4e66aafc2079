package io.wanshuffle.scheduler.workload;

import java.util.Arrays;

/**
 * One coflow of the Coflow-Benchmark trace: a single-stage MapReduce shuffle at rack level. All
 * mappers of one rack are one rack-level mapper; each reducer rack receives {@code
 * reducerMegabytes[r]} MB in total from the mappers (the trace does not say how much from each).
 *
 * <p>Arrays are copied in and out, so a {@code Coflow} is immutable.
 *
 * @param id coflow ID as the trace gives it
 * @param arrivalMillis arrival time in milliseconds from the start of the trace
 * @param mapperRacks rack of each mapper, in trace order (a rack may appear more than once)
 * @param reducerRacks rack of each reducer, in trace order
 * @param reducerMegabytes shuffle megabytes received by each reducer (same length as reducerRacks)
 */
public record Coflow(
    long id, long arrivalMillis, int[] mapperRacks, int[] reducerRacks, double[] reducerMegabytes) {

  /** Copies the arrays; checks the reducer arrays have the same length. */
  public Coflow {
    if (reducerRacks.length != reducerMegabytes.length) {
      throw new IllegalArgumentException(
          "coflow "
              + id
              + ": "
              + reducerRacks.length
              + " reducer racks but "
              + reducerMegabytes.length
              + " amounts");
    }
    mapperRacks = mapperRacks.clone();
    reducerRacks = reducerRacks.clone();
    reducerMegabytes = reducerMegabytes.clone();
  }

  /**
   * @return a copy of the mapper racks
   */
  @Override
  public int[] mapperRacks() {
    return mapperRacks.clone();
  }

  /**
   * @return a copy of the reducer racks
   */
  @Override
  public int[] reducerRacks() {
    return reducerRacks.clone();
  }

  /**
   * @return a copy of the megabytes per reducer
   */
  @Override
  public double[] reducerMegabytes() {
    return reducerMegabytes.clone();
  }

  /**
   * @return number of mappers (the trace's "Number of mappers")
   */
  public int mapperCount() {
    return mapperRacks.length;
  }

  /**
   * @return number of reducers
   */
  public int reducerCount() {
    return reducerRacks.length;
  }

  /**
   * @return total shuffle megabytes of the coflow (sum over reducers)
   */
  public double totalMegabytes() {
    double s = 0;
    for (double mb : reducerMegabytes) {
      s += mb;
    }
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Coflow c
        && c.id == id
        && c.arrivalMillis == arrivalMillis
        && Arrays.equals(c.mapperRacks, mapperRacks)
        && Arrays.equals(c.reducerRacks, reducerRacks)
        && Arrays.equals(c.reducerMegabytes, reducerMegabytes);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Arrays.hashCode(reducerRacks);
  }

  @Override
  public String toString() {
    return "Coflow[id="
        + id
        + ", arrival="
        + arrivalMillis
        + " ms, mappers="
        + Arrays.toString(mapperRacks)
        + ", reducers="
        + reducerRacks.length
        + ", "
        + totalMegabytes()
        + " MB]";
  }
}
