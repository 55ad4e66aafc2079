/**
 * {@code ./wan-shuffle demo}: the TPC-H join and a Facebook-trace replay with Spark's default
 * shuffle and with wan-shuffle on the testbed ({@link io.wanshuffle.it.demo.DemoCommand}), each
 * variant several times in turns ({@code DemoSection}); the side-by-side figures ({@link
 * io.wanshuffle.it.demo.Comparison}) per variant as medians and ranges ({@link
 * io.wanshuffle.it.demo.RunSpread}, {@code RunSummary}) with a verdict against the default ({@link
 * io.wanshuffle.it.demo.Verdict}), what the plugin captured ({@link
 * io.wanshuffle.it.demo.Captured}), the predicted step schedule cost and lower bounds ({@link
 * io.wanshuffle.it.demo.Prediction}) and the trace's traffic matrix ({@link
 * io.wanshuffle.it.demo.TraceInput}).
 */
package io.wanshuffle.it.demo;
