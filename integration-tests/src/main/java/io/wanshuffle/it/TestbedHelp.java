package io.wanshuffle.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The help of the testbed options ({@link TestbedOptions}) with a command's own defaults: {@code
 * demo} runs 2 racks of 2 hosts per site with 40 ms of WAN round trip, {@code testbed} one rack of
 * 3 hosts per site without, so each command's {@code --help} states its own. Each command applies
 * it in its picocli model transformer ({@code @Command(modelTransformer = ...)}).
 */
public final class TestbedHelp {
  private TestbedHelp() {}

  /**
   * Appends the command's defaults to the descriptions of {@code --racks}, {@code --hosts}, {@code
   * --nodes-a}, {@code --nodes-b}, {@code --rack-uplink} and {@code --rtt}; without a round trip of
   * its own the command has no {@code --rtt} (it takes its round trips another way).
   *
   * @param spec the command's model, holding the testbed options
   * @param rttMillis the command's WAN round trip when {@code --rtt} is not given, ms; null: no
   *     {@code --rtt} option
   * @param shape the command's shape where the options say nothing
   * @return {@code spec}, changed
   * @throws IllegalArgumentException if {@code spec} has no testbed options
   */
  public static CommandSpec withDefaults(
      CommandSpec spec, Integer rttMillis, TestbedOptions.ShapeDefaults shape) {
    String hosts =
        shape.hostsPerSite() > 0
            ? shape.hostsPerSite() + " per site"
            : "3 per site with 2 sites, 2 per site with 3 or 4";
    String eachOfTwo = shape.hostsPerSite() > 0 ? Integer.toString(shape.hostsPerSite()) : "3";
    Map<String, String> defaults = new HashMap<>();
    defaults.put("--racks", "default " + shape.racks());
    defaults.put("--hosts", "default " + hosts);
    defaults.put("--nodes-a", "default " + eachOfTwo + " with 2 sites");
    defaults.put("--nodes-b", "default " + eachOfTwo + " with 2 sites");
    defaults.put(
        "--rack-uplink",
        shape.rackUplinkAtNic()
            ? "default: the NIC rate, " + shape.hostsPerSite() / shape.racks() + ":1 oversubscribed"
            : "default none");
    if (rttMillis != null) {
      defaults.put("--rtt", "default " + rttMillis + (rttMillis == 0 ? ": none" : ""));
    }
    for (String name : defaults.keySet()) {
      if (spec.findOption(name) == null) {
        throw new IllegalArgumentException(spec.qualifiedName() + " has no option " + name);
      }
    }
    // removed and added again in order, so that a command with sortOptions = false keeps its order
    List<OptionSpec> options = new ArrayList<>(spec.options());
    options.forEach(spec::remove);
    for (OptionSpec o : options) {
      String d = defaults.get(o.longestName());
      if (o.longestName().equals("--rtt") && rttMillis == null) {
        continue;
      }
      spec.addOption(d == null ? o : withDefault(o, d));
    }
    return spec;
  }

  /**
   * @return {@code o} with {@code (defaults)} at the end of its description
   */
  private static OptionSpec withDefault(OptionSpec o, String defaults) {
    List<String> d = new ArrayList<>(Arrays.asList(o.description()));
    int last = d.size() - 1;
    d.set(last, d.get(last) + " (" + defaults + ")");
    return o.toBuilder().description(d.toArray(String[]::new)).build();
  }
}
