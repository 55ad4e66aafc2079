/**
 * Reading the library's text inputs: strict UTF-8 with a leading byte-order mark dropped, and the
 * reason a file cannot be read in words ({@link io.wanshuffle.scheduler.io.TextFile}); link rates
 * in the one syntax the topology file and the plugin's keys share ({@link
 * io.wanshuffle.scheduler.io.RateSyntax}, docs/rates.md).
 */
package io.wanshuffle.scheduler.io;
