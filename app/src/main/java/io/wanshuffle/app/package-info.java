/**
 * The {@code ./wan-shuffle} command line: {@link io.wanshuffle.app.WanShuffle}, the one picocli
 * root over every command of the product ({@code plan}, {@code liquid}, {@code demo}, {@code
 * run-app}, {@code e2e-bench}, {@code testbed}, {@code bench}) and the program the launcher script
 * runs.
 */
package io.wanshuffle.app;
