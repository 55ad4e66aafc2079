/**
 * Reports as HTML pages: {@link io.wanshuffle.it.report.OperatorReport} renders one application's
 * gated stages ({@code ./wan-shuffle report}, {@link io.wanshuffle.it.report.ReportCommand}) from
 * its capture folder or its event log ({@link io.wanshuffle.it.report.ApplicationCaptures}, {@link
 * io.wanshuffle.it.report.ApplicationCapture}): heat maps grouped by site and rack, planned and
 * realised steps, link throughput, lower bound, predicted against measured transfer time, bytes and
 * flows per link. {@link io.wanshuffle.it.report.HtmlReport} is the self-contained page and {@link
 * io.wanshuffle.it.report.Charts} the JFreeChart charts, also used by the demo.
 */
package io.wanshuffle.it.report;
