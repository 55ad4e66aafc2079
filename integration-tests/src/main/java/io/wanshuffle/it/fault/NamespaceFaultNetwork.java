package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.Exec;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.TestbedLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The faults' access to a running {@link NamespaceTestbed}. */
public final class NamespaceFaultNetwork implements FaultNetwork {
  private final NamespaceTestbed testbed;

  /**
   * @param testbed the running testbed
   */
  public NamespaceFaultNetwork(NamespaceTestbed testbed) {
    this.testbed = testbed;
  }

  @Override
  public TestbedLayout layout() {
    return testbed.layout();
  }

  @Override
  public String run(List<String> command) {
    return Exec.check(command.toArray(String[]::new));
  }

  @Override
  public void setExtraDelay(String link, double extraOneWayMillis) {
    testbed.setExtraDelay(link, extraOneWayMillis);
  }

  /**
   * Reads {@code /proc/PID/cmdline} whole (Java's {@code ProcessHandle.Info.commandLine} stops at
   * 4096 bytes on Linux: a JVM's long class path hides its main class), the arguments joined by
   * spaces; empty when the process is gone.
   */
  @Override
  public Optional<String> commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
      return Optional.of(new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip());
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
