/**
 * The testbed: two to four sites (clusters A, B, C, D) of hosts in racks and a control host, joined
 * by a backbone on which every site has its own side, and its measurement from outside Spark.
 *
 * <p>Building it: {@link io.wanshuffle.it.net.TestbedSpec} says what to build (sites, racks, hosts,
 * link rates, WAN round trip), {@link io.wanshuffle.it.net.Testbed#open} builds the variant the
 * system property {@code wanshuffle.testbed} asks for: {@link
 * io.wanshuffle.it.net.NamespaceTestbed} (one network namespace per host, tbf-shaped NICs, rack
 * links and backbone sides, a user-space WAN delay line; root and iproute2) or {@link
 * io.wanshuffle.it.net.LoopbackTestbed} (loopback addresses, nothing shaped). Both name and address
 * their hosts ({@link io.wanshuffle.it.net.Node}) by one scheme ({@code Hosts}) and write the same
 * topology table and topology file ({@link io.wanshuffle.it.net.TopologyFile}, the links in the
 * {@code plan --topology} format). Resources are torn down by {@link
 * io.wanshuffle.it.net.Teardown}: on close, after a failed start, and at JVM exit.
 *
 * <p>Measuring it: {@link io.wanshuffle.it.net.BackboneMeter} (the backbone into site B: interface
 * counters, tbf statistics, TCP segments per side; {@link io.wanshuffle.it.net.BackboneTrace}),
 * {@link io.wanshuffle.it.net.LinkMeter} (every link's counters and tbf drops; {@link
 * io.wanshuffle.it.net.LinkTrace}), {@link io.wanshuffle.it.net.TcpStateSampler} (the senders' TCP
 * connections; {@link io.wanshuffle.it.net.TcpTrace}), and the probes {@link
 * io.wanshuffle.it.net.FlowProbe} (raw TCP throughput from the map sites into B) and {@link
 * io.wanshuffle.it.net.HandshakeProbe} (round-trip time).
 */
package io.wanshuffle.it.net;
