/**
 * The planning commands of the {@code ./wan-shuffle} command line: {@code plan} (KPBS schedule of a
 * traffic matrix, package {@code plan}) and {@code liquid} (liquid schedule of unit transfers,
 * package {@code liquid}), with what they share: the number and format options, {@link
 * io.wanshuffle.cli.InputException} for bad input and {@link io.wanshuffle.cli.ExitStatus} (0
 * success, 1 internal error, 2 bad input or usage with one stderr line). The root command that
 * holds them and every other command is {@code io.wanshuffle.app.WanShuffle} (module {@code app}).
 */
package io.wanshuffle.cli;
