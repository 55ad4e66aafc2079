package io.wanshuffle.it.bench;

import io.wanshuffle.it.TestbedOptions;
import io.wanshuffle.it.net.TestbedSpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * One {@code e2e-bench --shape} value: testbed options in one argument ({@code "--racks 2 --hosts 4
 * --rack-uplink 100mbit"}), read with the same options as the command line's ({@link
 * TestbedOptions}).
 */
final class ShapeOption {
  /** Holds the testbed options of one value. */
  @Command(name = "--shape")
  static final class Shape {
    @Mixin TestbedOptions net;
  }

  private ShapeOption() {}

  /**
   * @param shape a {@code --shape} value: testbed options separated by spaces
   * @param tcpCongestionControl the command line's TCP congestion control
   * @param loopback the command line's {@code --loopback}
   * @return its testbed, RTT 0 (the RTTs are {@code --rtts})
   * @throws IllegalArgumentException naming {@code --shape} and the value when it does not parse,
   *     sets the RTT (that is {@code --rtts}) or describes no valid testbed
   */
  static TestbedSpec parse(String shape, String tcpCongestionControl, boolean loopback) {
    Shape s = new Shape();
    try {
      new CommandLine(s).parseArgs(shape.strip().split("\\s+"));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException("--shape '" + shape + "': " + e.getMessage(), e);
    }
    if (s.net.rttGiven()) {
      throw new IllegalArgumentException("--shape '" + shape + "': give the RTTs with --rtts");
    }
    s.net.tcpCongestionControl = tcpCongestionControl;
    s.net.loopback = loopback;
    try {
      return s.net.spec();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--shape '" + shape + "': " + e.getMessage(), e);
    }
  }
}
