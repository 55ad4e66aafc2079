/**
 * wan-shuffle's settings: each {@code spark.wanshuffle.*} key declared once in {@link
 * io.wanshuffle.spark.config.Settings} (those of several applications on one backbone in {@link
 * io.wanshuffle.spark.config.ArbiterSettings}) as a {@link io.wanshuffle.spark.config.ConfigEntry}
 * (key, type with bounds and unit, default, documentation, whether it is experimental), read and
 * checked at start-up into the immutable {@link io.wanshuffle.spark.config.WanShuffleConf}.
 *
 * <p>One small class per kind of value parses and bounds it (rates, times, sizes, flow counts,
 * decimals, words, lists, per-host rates); {@link io.wanshuffle.spark.config.PlatformRates} turns
 * the backbone and NIC rates into k, δ and the base speed by the base-speed rule of the DGGP paper
 * (Jeannot and Wagner, sec. 2.2-2.3). A wrong value fails with a {@link
 * io.wanshuffle.spark.config.ConfigValueException} naming the key and the value as given. The
 * tables of {@code docs/configuration.md} are generated from the declarations.
 */
package io.wanshuffle.spark.config;
