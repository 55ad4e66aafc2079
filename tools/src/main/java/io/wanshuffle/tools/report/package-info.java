/**
 * Reports as HTML pages: {@link io.wanshuffle.tools.report.OperatorReport} renders one
 * application's gated stages ({@code ./wan-shuffle report}, {@link
 * io.wanshuffle.tools.report.ReportCommand}) read from its capture folder ({@link
 * io.wanshuffle.tools.report.ApplicationCaptures}) or its Spark event log ({@link
 * io.wanshuffle.tools.report.EventLogs}, through Spark's own event-log reader and codecs) as an
 * {@link io.wanshuffle.tools.report.ApplicationCapture}: heat maps grouped by site and rack,
 * planned and realised steps, link throughput, lower bound, predicted against measured transfer
 * time, bytes and flows per link. {@link io.wanshuffle.tools.report.HtmlReport} is the
 * self-contained page and {@link io.wanshuffle.tools.report.Charts} the JFreeChart charts, also
 * used by the demo.
 */
package io.wanshuffle.tools.report;
