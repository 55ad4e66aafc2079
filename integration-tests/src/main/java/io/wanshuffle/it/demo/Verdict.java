package io.wanshuffle.it.demo;

import java.util.Locale;

/**
 * Whether a variant's runs were faster or slower than the reference's (Spark's default shuffle),
 * said only where the runs allow it: the difference between the two medians must exceed the runs'
 * spread, the larger of the two ranges (max - min over each variant's runs). Where it does not, the
 * difference is noise as far as these runs can tell, and the verdict says "within the spread".
 */
public enum Verdict {
  /** The variant's median is below the reference's by more than the spread. */
  FASTER("faster"),
  /** The variant's median is above the reference's by more than the spread. */
  SLOWER("slower"),
  /** The medians differ by no more than the spread. */
  WITHIN("within the spread");

  private final String words;

  Verdict(String words) {
    this.words = words;
  }

  /**
   * @return the verdict in words: {@code faster}, {@code slower} or {@code within the spread}
   */
  public String words() {
    return words;
  }

  /**
   * @param variant the variant's times over its runs, s
   * @param reference the reference's times over its runs, s
   * @return {@link #FASTER} or {@link #SLOWER} when |median difference| exceeds max(variant's
   *     range, reference's range), else {@link #WITHIN}
   */
  public static Verdict of(RunSpread variant, RunSpread reference) {
    double diff = variant.median() - reference.median();
    double spread = Math.max(variant.range(), reference.range());
    if (Math.abs(diff) <= spread) {
      return WITHIN;
    }
    return diff < 0 ? FASTER : SLOWER;
  }

  /**
   * @param variant the variant's times over its runs, s
   * @param reference the reference's times over its runs, s (a positive median)
   * @return the difference of the medians in % of the reference's and the verdict, e.g. {@code
   *     -12.3 % faster}, {@code +1.0 % within the spread}
   */
  public static String text(RunSpread variant, RunSpread reference) {
    double pct = 100 * (variant.median() - reference.median()) / reference.median();
    return String.format(Locale.ROOT, "%+.1f %% ", pct) + of(variant, reference).words();
  }
}
