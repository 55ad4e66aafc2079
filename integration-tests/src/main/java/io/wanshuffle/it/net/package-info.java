/**
 * The two-cluster testbed: clusters A and B of hosts and a control host joined by one backbone, and
 * its measurement from outside Spark.
 *
 * <p>Building it: {@link io.wanshuffle.it.net.TestbedSpec} says what to build, {@link
 * io.wanshuffle.it.net.Testbed#open} builds the variant the system property {@code
 * wanshuffle.testbed} asks for: {@link io.wanshuffle.it.net.NamespaceTestbed} (one network
 * namespace per host, tbf-shaped NICs and backbone, a user-space WAN delay line; root and iproute2)
 * or {@link io.wanshuffle.it.net.LoopbackTestbed} (loopback addresses, nothing shaped). Both name
 * and address their hosts ({@link io.wanshuffle.it.net.Node}) by one scheme ({@code Hosts}) and
 * write the same topology table. Resources are torn down by {@link io.wanshuffle.it.net.Teardown}:
 * on close, after a failed start, and at JVM exit.
 *
 * <p>Measuring it: {@link io.wanshuffle.it.net.BackboneMeter} (backbone interface counters, tbf
 * statistics, TCP segments per cluster; {@link io.wanshuffle.it.net.BackboneTrace}), {@link
 * io.wanshuffle.it.net.TcpStateSampler} (the senders' TCP connections; {@link
 * io.wanshuffle.it.net.TcpTrace}), and the probes {@link io.wanshuffle.it.net.FlowProbe} (raw TCP
 * throughput A to B) and {@link io.wanshuffle.it.net.HandshakeProbe} (round-trip time).
 */
package io.wanshuffle.it.net;
