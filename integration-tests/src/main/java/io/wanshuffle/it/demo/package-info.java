/**
 * {@code ./wan-shuffle demo}: the TPC-H join and a Facebook-trace replay with Spark's default
 * shuffle and with wan-shuffle on the testbed ({@link io.wanshuffle.it.demo.DemoCommand}); the
 * side-by-side figures ({@link io.wanshuffle.it.demo.Comparison}), what the plugin captured ({@link
 * io.wanshuffle.it.demo.Captured}), the predicted step schedule cost and lower bounds ({@link
 * io.wanshuffle.it.demo.Prediction}) and the trace's traffic matrix ({@link
 * io.wanshuffle.it.demo.TraceInput}).
 */
package io.wanshuffle.it.demo;
