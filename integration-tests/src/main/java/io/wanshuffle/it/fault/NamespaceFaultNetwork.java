package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.Exec;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.TestbedLayout;
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

  @Override
  public Optional<String> commandLine(long pid) {
    return ProcessHandle.of(pid).flatMap(p -> p.info().commandLine());
  }
}
