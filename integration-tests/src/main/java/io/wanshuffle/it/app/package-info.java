/**
 * {@code ./wan-shuffle run-app}: any Spark application submitted with spark-submit on the testbed,
 * with Spark's default shuffle and with wan-shuffle ({@link io.wanshuffle.it.app.AppCommand}), and
 * compared from outside: Spark's event log ({@link io.wanshuffle.it.app.EventLog}), the backbone's
 * counters, the plugin's capture and the application's stdout ({@link
 * io.wanshuffle.it.app.AppFigures}, {@code AppReport}); and a sample application ({@link
 * io.wanshuffle.it.app.GeneratedSort}).
 */
package io.wanshuffle.it.app;
