/**
 * The {@code ./wan-shuffle} command line: {@link io.wanshuffle.cli.WanShuffle} is the top command
 * (picocli) and each subcommand lives in its own package ({@code plan}: KPBS schedule of a traffic
 * matrix; {@code liquid}: liquid schedule of unit transfers on a topology). Exit status: 0 success,
 * 1 internal error, 2 bad input or usage (one stderr line).
 */
package io.wanshuffle.cli;
