package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fault as {@code --fault} gives it: {@code KIND:TARGET:AT:FOR[:ARG]}, AT and FOR measured from
 * the start of the first stage that reads shuffle data (the first reduce stage):
 *
 * <ul>
 *   <li>{@code down:LINK:AT:FOR}: the link drops every frame;
 *   <li>{@code loss:LINK:AT:FOR:P%}: it drops P % of its frames at random (0 &lt; P &le; 100, to
 *       0.01 %);
 *   <li>{@code rate:LINK:AT:FOR:RATE}: its shaped rate becomes RATE ({@code 25mbit}, tc's units);
 *   <li>{@code delay:LINK:AT:FOR:MS}: its frames get MS more one-way delay (a backbone link on a
 *       testbed with a WAN round trip: the delay line adds it);
 *   <li>{@code partition:HOST:AT:FOR}: the host's traffic to and from the control host (the
 *       driver's) is dropped, its traffic with every other host kept;
 *   <li>{@code kill:HOST:AT}: the host's Spark executors get SIGKILL; {@code kill:zookeeper:AT}:
 *       the arbiter's ZooKeeper server (run-app's and e2e-bench's {@code --arbiter zookeeper}, on
 *       the driver's host) gets SIGKILL and stays down.
 * </ul>
 *
 * <p>LINK is a link's name as the topology and the reports write it ({@code backbone.out[/A]},
 * {@code backbone.in[/B]}, {@code rack.uplink[/A/rack0]}, {@code rack.downlink[/B/rack1]}, {@code
 * nic.up[10.77.1.11]}, {@code nic.down[b1]}: a NIC by address or host name); HOST a worker host by
 * name ({@code b1}) or address. AT and FOR are durations: a decimal number of seconds ({@code 5},
 * {@code 2.5}) or a number with a unit {@code ms}, {@code s}, {@code min} ({@code m}) or {@code h};
 * FOR {@code rest} lasts to the end of the run. This class checks the form; {@link FaultPlan}
 * checks the targets against a testbed.
 *
 * @param text the spec as given
 * @param kind its kind
 * @param target the link or host as given
 * @param atMillis when it is applied after the first reduce stage's start, ms, at least 0
 * @param forMillis how long it lasts, ms, above 0; {@link #REST} for the rest of the run; 0 for
 *     {@link FaultKind#KILL}
 * @param argument loss: the share dropped, %; rate: the new rate, bits/s; delay: the added one-way
 *     delay, ms; 0 for the other kinds
 */
public record FaultSpec(
    String text, FaultKind kind, String target, long atMillis, long forMillis, double argument) {

  /** The target of {@code kill:zookeeper:AT}: the arbiter's ZooKeeper server. */
  public static final String ARBITER = "zookeeper";

  /** {@link #forMillis()} of a fault that lasts to the end of the run. */
  public static final long REST = -1;

  /** FOR's word for "to the end of the run". */
  public static final String REST_WORD = "rest";

  /** Largest delay a {@code delay} fault adds, ms. */
  static final double MAX_DELAY_MS = 10_000;

  private static final Pattern DURATION =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|min|m|h)?");

  /**
   * @param text a spec, e.g. {@code rate:backbone.out[/A]:10:rest:50mbit}
   * @return the fault it describes
   * @throws IllegalArgumentException naming the spec and what is wrong: an unknown kind, the wrong
   *     number of fields (the message gives the kind's form), a time, share, rate or delay that
   *     does not parse or is out of range
   */
  public static FaultSpec parse(String text) {
    String t = text.strip();
    List<String> f = List.of(t.split(":", -1));
    FaultKind kind;
    try {
      kind = FaultKind.of(f.get(0).toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw bad(text, e.getMessage());
    }
    int fields = kind.lasts() ? (kind.hasArgument() ? 5 : 4) : 3;
    if (f.size() != fields) {
      throw bad(text, "expected " + kind.form() + " (" + fields + " fields), got " + f.size());
    }
    String target = f.get(1).strip();
    if (target.isEmpty()) {
      throw bad(text, "no " + (kind.onLink() ? "link" : "host"));
    }
    long at = millis(text, "AT", f.get(2), 1000);
    long dur = 0;
    if (kind.lasts()) {
      dur = f.get(3).strip().equals(REST_WORD) ? REST : millis(text, "FOR", f.get(3), 1000);
      if (dur == 0) {
        throw bad(text, "FOR must be above 0 (or " + REST_WORD + ")");
      }
    }
    double arg = kind.hasArgument() ? argument(text, kind, f.get(4).strip()) : 0;
    return new FaultSpec(t, kind, target, at, dur, arg);
  }

  private static double argument(String text, FaultKind kind, String arg) {
    switch (kind) {
      case LOSS:
        {
          String p = arg.endsWith("%") ? arg.substring(0, arg.length() - 1).strip() : arg;
          double share = number(p);
          if (!(share > 0 && share <= 100)) {
            throw bad(text, "P% must be a share above 0 and at most 100, got '" + arg + "'");
          }
          return share;
        }
      case RATE:
        try {
          return TestbedSpec.parseRate(arg);
        } catch (IllegalArgumentException e) {
          throw bad(text, e.getMessage());
        }
      case DELAY:
        {
          double ms = millis(text, "MS", arg, 1) * 1.0;
          if (ms <= 0 || ms > MAX_DELAY_MS) {
            throw bad(
                text,
                "MS must be above 0 and at most " + (long) MAX_DELAY_MS + ", got '" + arg + "'");
          }
          return ms;
        }
      default:
        throw new IllegalStateException("no argument for " + kind);
    }
  }

  /**
   * @param text the spec (for messages)
   * @param field the field's name (for messages)
   * @param value a duration: a decimal number in {@code bareUnitMillis}, or with a unit
   * @param bareUnitMillis what a bare number counts, ms
   * @return the duration, ms, rounded
   */
  private static long millis(String text, String field, String value, long bareUnitMillis) {
    Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw bad(
          text,
          field
              + " '"
              + value
              + "' is not a duration (a number of "
              + (bareUnitMillis == 1 ? "milliseconds" : "seconds")
              + ", or with a unit: 500ms, 30s, 2min)");
    }
    double n = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "" : m.group(2);
    double unitMillis =
        switch (unit) {
          case "ms" -> 1;
          case "s" -> 1000;
          case "min", "m" -> 60_000;
          case "h" -> 3_600_000;
          default -> bareUnitMillis;
        };
    return Math.round(n * unitMillis);
  }

  private static double number(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException("--fault '" + text + "': " + why);
  }

  /**
   * @return true when the fault lasts to the end of the run ({@code FOR} is {@code rest})
   */
  public boolean toTheEnd() {
    return forMillis == REST;
  }

  /**
   * @return when the fault ends if it takes effect on time, ms after the first reduce stage's
   *     start; {@link Long#MAX_VALUE} when it lasts to the end of the run; {@link #atMillis()} for
   *     a kill
   */
  public long untilMillis() {
    return toTheEnd() ? Long.MAX_VALUE : atMillis + forMillis;
  }
}
