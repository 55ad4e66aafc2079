/**
 * The load on every link of a run, seen from outside the plugin's plan: the links of the testbed's
 * topology file and each one's capacity in flows ({@link io.wanshuffle.it.links.TopologyLinks},
 * scheduler-core's {@code Topology} and link network), the most flows that held each link at once
 * from the plugin's realised flow log ({@link io.wanshuffle.it.links.LinkFlows}), and the bytes,
 * utilisation and tbf drops of each link from its interface counters ({@link
 * io.wanshuffle.it.links.LinkLoad}); and the generalised physical limit of a traffic matrix (max
 * over links of bytes / rate).
 */
package io.wanshuffle.it.links;
