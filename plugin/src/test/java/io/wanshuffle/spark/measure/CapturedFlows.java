package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StepCapture;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Realised flows of captured testbed runs, as the driver's measurement sees them, and the testbed's
 * routes.
 *
 * <p>The testbed (integration-tests, {@code ./wan-shuffle testbed}): site A hosts {@code
 * 10.77.1.*}, site B hosts {@code 10.77.2.*}; a flow from h to g crosses {@code nic.up[h]}, {@code
 * backbone.out[/<site of h>]}, {@code backbone.in[/<site of g>]}, {@code nic.down[g]}.
 *
 * <p>Run as a program to turn capture folders into the fixture format or print the estimate:
 *
 * <pre>
 * java -cp ... io.wanshuffle.spark.measure.CapturedFlows csv   APP_DIR   # fixture rows
 * java -cp ... io.wanshuffle.spark.measure.CapturedFlows print FILE.csv  # per-link estimates
 * </pre>
 */
final class CapturedFlows {
  /** Fixture header: the components of {@link MeasuredFlow}. */
  static final String HEADER = "srcHost,dstHost,bytes,grantedAtMs,startMs,endMs";

  private CapturedFlows() {}

  /** The testbed's routes: NIC up, backbone out of the source site, into the other, NIC down. */
  static NetworkEstimator.Routes testbed() {
    return (s, d) ->
        List.of(
            "nic.up[" + s + "]",
            "backbone.out[/" + site(s) + "]",
            "backbone.in[/" + site(d) + "]",
            "nic.down[" + d + "]");
  }

  private static String site(String host) {
    return host.startsWith("10.77.1.") ? "A" : host.startsWith("10.77.2.") ? "B" : host;
  }

  /**
   * @param appDir a capture's application folder (flows.csv and stage-*.kryo)
   * @return its flows in log order, each with its step's grant time (0 for ungated flows)
   * @throws IOException on read errors
   */
  static List<MeasuredFlow> fromCapture(Path appDir) throws IOException {
    Map<Long, Long> granted = new HashMap<>();
    for (StageCapture s : CaptureFiles.readStages(appDir)) {
      for (StepCapture st : s.steps()) {
        granted.put(st.stepId(), st.grantedAtMs());
      }
    }
    List<MeasuredFlow> out = new ArrayList<>();
    for (FlowCapture f : CaptureFiles.readFlowLog(appDir.resolve(CaptureFiles.FLOW_LOG))) {
      long g = f.stepId() > 0 ? granted.getOrDefault(f.stepId(), 0L) : 0;
      out.add(new MeasuredFlow(f.srcHost(), f.dstHost(), f.bytes(), g, f.startMs(), f.endMs()));
    }
    return out;
  }

  /**
   * @param in fixture rows ({@link #HEADER}; lines starting with # are comments)
   * @return the flows
   */
  static List<MeasuredFlow> read(InputStream in) {
    List<MeasuredFlow> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String l;
      while ((l = r.readLine()) != null) {
        l = l.trim();
        if (l.isEmpty() || l.startsWith("#") || l.equals(HEADER)) {
          continue;
        }
        String[] c = l.split(",");
        out.add(
            new MeasuredFlow(
                c[0],
                c[1],
                Long.parseLong(c[2]),
                Long.parseLong(c[3]),
                Long.parseLong(c[4]),
                Long.parseLong(c[5])));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /**
   * @param resource a fixture under {@code /measure/} on the test class path
   * @return its flows
   */
  static List<MeasuredFlow> fixture(String resource) {
    InputStream in = CapturedFlows.class.getResourceAsStream("/measure/" + resource);
    if (in == null) {
      throw new IllegalArgumentException("no fixture /measure/" + resource);
    }
    return read(in);
  }

  /** Prints β and every link's rate in Mbit/s. */
  static void print(String name, NetworkEstimate e, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%s: %d flows, beta %.3f s (grant %.3f + ramp %.3f; first flow's ramp %.3f)%n",
        name,
        e.flows(),
        e.betaSeconds(),
        e.grantDelaySeconds(),
        e.rampSeconds(),
        e.firstRampSeconds());
    for (LinkRate r : e.rates().values()) {
      out.printf(
          Locale.ROOT,
          "  %-24s %7.1f Mbit/s  %3d flows%s%n",
          r.link(),
          r.bytesPerSecond() * 8 / 1e6,
          r.flows(),
          r.fitted() ? " fitted" : "");
    }
  }

  /**
   * @param f a flow
   * @return its line in the fixtures' CSV format ({@link #HEADER})
   */
  static String csvLine(MeasuredFlow f) {
    return String.join(
        ",",
        f.srcHost(),
        f.dstHost(),
        Long.toString(f.bytes()),
        Long.toString(f.grantedAtMs()),
        Long.toString(f.startMs()),
        Long.toString(f.endMs()));
  }

  /**
   * @param args {@code csv APP_DIR...} or {@code print FILE...}
   * @throws IOException on read errors
   */
  public static void main(String[] args) throws IOException {
    for (int i = 1; i < args.length; i++) {
      Path p = Path.of(args[i]);
      if (args[0].equals("csv")) {
        System.out.println("# " + p);
        System.out.println(HEADER);
        for (MeasuredFlow f : fromCapture(p)) {
          System.out.println(csvLine(f));
        }
      } else {
        List<MeasuredFlow> flows =
            p.toFile().isDirectory() ? fromCapture(p) : read(java.nio.file.Files.newInputStream(p));
        print(p.toString(), NetworkEstimator.estimate(flows, testbed()), System.out);
      }
    }
  }
}
