package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.TestbedLayout;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A testbed for the faults' unit tests: records every command and delay change, answers commands
 * from canned outputs (by the command's first words), and fails the commands it is told to.
 */
final class FakeNetwork implements FaultNetwork {
  final TestbedLayout layout;
  final List<String> calls = new ArrayList<>();
  final Map<String, String> outputs = new HashMap<>();
  final Map<Long, String> commandLines = new HashMap<>();
  String failing;

  FakeNetwork(TestbedSpec spec) {
    this.layout = TestbedLayout.of(spec);
  }

  @Override
  public TestbedLayout layout() {
    return layout;
  }

  @Override
  public synchronized String run(List<String> command) {
    String line = String.join(" ", command);
    calls.add(line);
    if (failing != null && line.startsWith(failing)) {
      throw new IllegalStateException("`" + line + "` failed (exit 1): told to fail");
    }
    return outputs.entrySet().stream()
        .filter(e -> line.startsWith(e.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse("");
  }

  @Override
  public synchronized void setExtraDelay(String link, double extraOneWayMillis) {
    calls.add("delay " + link + " " + extraOneWayMillis);
  }

  @Override
  public Optional<String> commandLine(long pid) {
    return Optional.ofNullable(commandLines.get(pid));
  }

  synchronized List<String> calls() {
    return List.copyOf(calls);
  }
}
