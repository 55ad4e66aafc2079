package io.wanshuffle.cli.units;

import picocli.CommandLine.ITypeConverter;

/**
 * A picocli converter of a duration or a rate: what its options accept, so that help texts, docs
 * and the tests that feed every such option bad values ({@code app}'s option sweep) agree with it.
 *
 * @param <T> the option's Java type
 */
public interface UnitConverter<T> extends ITypeConverter<T> {
  /**
   * @return the unit of a bare number, e.g. {@code s}, {@code ms}, {@code bytes/s}; null when a
   *     bare number is refused (a unit must be given)
   */
  String bareUnit();

  /**
   * @return true when zero is a meaningful value (a setup delay, a round trip), false when it is
   *     refused (a time limit, a rate)
   */
  boolean zeroAllowed();

  /**
   * @return the units a value may carry, e.g. {@code [ms, s, min, h]}; empty when only bare numbers
   *     are read
   */
  java.util.List<String> units();
}
