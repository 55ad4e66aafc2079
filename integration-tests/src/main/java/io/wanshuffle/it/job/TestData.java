package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic records for the test jobs, generated the same way on executors and (for the oracle)
 * in the test JVM: map task {@code m} of a job draws from {@code SplittableRandom(seed*1_000_003 +
 * m)}.
 */
public final class TestData {
  private TestData() {}

  /**
   * One generated record.
   *
   * @param key key in {@code [0, keys)} (skewed: half the records fall on the lowest 1/16 keys)
   * @param value a value in {@code [0, 1000)}
   * @param payload an ASCII string of {@code payloadChars} characters
   */
  public record Rec(long key, long value, String payload) {}

  /**
   * The records of map task {@code map}.
   *
   * @param seed job seed
   * @param map map task index
   * @param n number of records
   * @param keys key range (at least 16)
   * @param payloadChars payload length (0 for empty payloads)
   * @return {@code n} records in generation order
   */
  public static List<Rec> records(long seed, int map, int n, long keys, int payloadChars) {
    SplittableRandom r = new SplittableRandom(seed * 1_000_003L + map);
    List<Rec> out = new ArrayList<>(n);
    char[] buf = new char[payloadChars];
    for (int i = 0; i < n; i++) {
      long key = r.nextBoolean() ? r.nextLong(keys / 16) : r.nextLong(keys);
      long value = r.nextLong(1000);
      for (int c = 0; c < payloadChars; c++) {
        buf[c] = (char) ('a' + r.nextInt(26));
      }
      out.add(new Rec(key, value, new String(buf)));
    }
    return out;
  }
}
