/**
 * Reading the library's text inputs: strict UTF-8 with a leading byte-order mark dropped, and the
 * reason a file cannot be read in words ({@link io.wanshuffle.scheduler.io.TextFile}).
 */
package io.wanshuffle.scheduler.io;
