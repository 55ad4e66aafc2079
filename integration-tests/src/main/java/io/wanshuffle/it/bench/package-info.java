/**
 * {@code ./wan-shuffle e2e-bench}: the end-to-end benchmark, Spark's default shuffle against
 * wan-shuffle variants on synthetic and trace traffic patterns at several WAN round trips ({@link
 * io.wanshuffle.it.bench.E2eBenchCommand}), its patterns ({@code Patterns}), variants ({@code
 * Variant}) and Markdown report ({@code E2eReport}, merged over the published one by {@code
 * ReportMerge}); for the bottleneck fill, the variants in turns and the machine's load ({@code
 * FillOptions}, {@code MachineLoad}) and the sections of the fill figures and targets ({@code
 * FillReport}, {@code FillTargets}, {@code TransferPhase}).
 */
package io.wanshuffle.it.bench;
