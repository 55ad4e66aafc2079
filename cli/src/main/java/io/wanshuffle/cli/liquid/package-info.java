/**
 * {@code ./wan-shuffle liquid}: reads unit-size transfers given by the links of their paths ({@link
 * io.wanshuffle.cli.liquid.TransfersFile}), searches a liquid schedule of them (Gabrielyan, Hersch,
 * "Network Topology Aware Scheduling of Collective Communications", sec. 3) with DSatur colouring
 * as the fallback, and prints the time frames as text or JSON ({@link
 * io.wanshuffle.cli.liquid.LiquidCommand}). See docs/cli.md.
 */
package io.wanshuffle.cli.liquid;
