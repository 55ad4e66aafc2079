/**
 * The command line of the integration-tests module: {@code ./wan-shuffle demo | e2e-bench | testbed
 * | run-app} ({@link io.wanshuffle.it.Main}), the {@code testbed} command ({@code TestbedCommand}:
 * build, probe or remove the network) and the testbed options every command shares ({@link
 * io.wanshuffle.it.TestbedOptions}: sites, racks, host counts, NIC, rack and backbone rates, WAN
 * round trip, TCP congestion control, loopback variant).
 *
 * <p>The module's packages, from the network up: {@link io.wanshuffle.it.net} (the testbed and its
 * measurement from outside Spark), {@link io.wanshuffle.it.spark} (Spark standalone on a testbed),
 * {@link io.wanshuffle.it.job} (the jobs and the driver program), {@link
 * io.wanshuffle.it.experiment} (measured runs on the testbed), {@link io.wanshuffle.it.links} (each
 * link's load in a run: capacities, flows, counters), then the commands' own packages {@link
 * io.wanshuffle.it.demo}, {@link io.wanshuffle.it.bench} and {@link io.wanshuffle.it.app}. Their
 * HTML pages are drawn with the report's classes of the tools module ({@code
 * io.wanshuffle.tools.report}).
 */
package io.wanshuffle.it;
