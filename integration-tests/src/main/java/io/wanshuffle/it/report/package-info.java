/**
 * The demo's HTML report: a self-contained page ({@link io.wanshuffle.it.report.HtmlReport}) with
 * JFreeChart charts ({@link io.wanshuffle.it.report.Charts}: heat map of the traffic matrix, Gantt
 * chart of tasks, steps and flows, backbone throughput).
 */
package io.wanshuffle.it.report;
