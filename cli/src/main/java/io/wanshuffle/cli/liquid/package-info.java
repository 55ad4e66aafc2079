/**
 * {@code ./wan-shuffle liquid}: reads unit-size transfers, each a set of links ({@link
 * io.wanshuffle.cli.liquid.TransfersFile}), groups them into the fewest time frames in which no
 * link carries two transfers (liquid-schedules paper, Gabrielyan and Hersch) and prints the
 * schedule as JSON or text. See docs/cli.md.
 */
package io.wanshuffle.cli.liquid;
