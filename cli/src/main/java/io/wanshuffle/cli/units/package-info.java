/**
 * The duration and rate values of every command's options, as picocli converters ({@link
 * io.wanshuffle.cli.units.UnitConverter}): a duration is a decimal number with a unit ({@code
 * 500ms}, {@code 30s}, {@code 2min}, {@code 1h}) or a bare number in the option's own unit (seconds
 * or milliseconds, as its help says); a bytes-per-second rate is a bare decimal number. A value
 * that is negative, zero where zero makes no sense, not whole where the option counts whole units,
 * or in an unknown unit is a usage error (exit status 2) whose message names the option.
 */
package io.wanshuffle.cli.units;
