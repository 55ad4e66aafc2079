package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.TestbedLayout;
import java.util.List;
import java.util.Optional;

/**
 * What faults act through on a running testbed: system commands ({@code tc}, {@code nft}, {@code
 * ip}, {@code kill}) run from the root namespace, the WAN delay line, and the processes' command
 * lines. {@link NamespaceFaultNetwork} is the namespace testbed's; tests give a fake one.
 */
public interface FaultNetwork {
  /**
   * @return where the testbed's hosts and links lie
   */
  TestbedLayout layout();

  /**
   * Runs a command that must succeed.
   *
   * @param command program and arguments
   * @return its standard output
   * @throws IllegalStateException naming the command, its exit status and its standard error when
   *     it fails
   */
  String run(List<String> command);

  /**
   * Adds a delay to a backbone link's frames in the WAN delay line (0 removes it).
   *
   * @param link a backbone link's name
   * @param extraOneWayMillis the added one-way delay, ms
   * @throws IllegalStateException if the delay line does not take it
   */
  void setExtraDelay(String link, double extraOneWayMillis);

  /**
   * @param pid a process id
   * @return the process's command line, or empty when it is gone or cannot be read
   */
  Optional<String> commandLine(long pid);
}
