/**
 * Faults injected into the namespace testbed while a Spark application runs on it: a link down,
 * lossy, slower or later, a host cut off from the driver's host, an executor killed.
 *
 * <p>{@link io.wanshuffle.it.fault.FaultSpec} reads a {@code --fault} spec, {@link
 * io.wanshuffle.it.fault.FaultPlan} checks the specs against the testbed ({@link
 * io.wanshuffle.it.net.TestbedLayout}) before it starts, {@link io.wanshuffle.it.fault.Injection}
 * applies and undoes one fault with tc, nftables and the WAN delay line through a {@link
 * io.wanshuffle.it.fault.FaultNetwork}, and {@link io.wanshuffle.it.fault.FaultSession} times them
 * from the first reduce stage's start, which the application's {@link
 * io.wanshuffle.it.fault.ReduceStageSignal} listener reports. {@link
 * io.wanshuffle.it.fault.FaultOptions} is the commands' option; {@link
 * io.wanshuffle.it.fault.FaultRecord} and {@link io.wanshuffle.it.fault.FaultRun} go into their
 * reports.
 */
package io.wanshuffle.it.fault;
