package io.wanshuffle.it.fault;

import io.wanshuffle.it.net.Exec;
import io.wanshuffle.it.net.NamespaceTestbed;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedLayout;
import io.wanshuffle.it.net.TestbedSpec;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --fault SPEC} option of {@code run-app} and {@code e2e-bench} (repeatable; {@link
 * FaultSpec} gives the form): checked against the testbed before it starts ({@link #check}), then
 * armed around each run ({@link #arm}): the run's Spark settings get the reduce-stage listener
 * ({@link ReduceStageSignal}, in a jar of its own on the driver's class path) and a {@link
 * FaultSession} injects the faults while the run goes on.
 */
public final class FaultOptions {
  /** The option's help as picocli formats it ({@code %%} prints one %), also in docs/cli.md. */
  static final String HELP =
      "inject a fault into every run on the testbed (repeatable): KIND:TARGET:AT:FOR[:ARG], AT and"
          + " FOR from the start of the first reduce stage (seconds, or 500ms, 2min; FOR rest = to the"
          + " end of the run): down:LINK:AT:FOR, loss:LINK:AT:FOR:P%%, rate:LINK:AT:FOR:RATE,"
          + " delay:LINK:AT:FOR:MS (a backbone link, --rtt > 0), partition:HOST:AT:FOR (its traffic"
          + " with the driver's host dropped), kill:HOST:AT (SIGKILL its executor; kill:zookeeper:AT: the"
          + " --arbiter zookeeper server); LINK as the"
          + " reports name it, e.g. backbone.out[/A], rack.uplink[/A/rack0], nic.down[b1];"
          + " HOST e.g. b1";

  @Option(
      names = "--fault",
      paramLabel = "SPEC",
      converter = SpecConverter.class,
      description = HELP)
  List<FaultSpec> specs = new ArrayList<>();

  /** Reads a {@code --fault} value. */
  static final class SpecConverter implements ITypeConverter<FaultSpec> {
    @Override
    public FaultSpec convert(String value) {
      try {
        return FaultSpec.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage().replaceFirst("^--fault ", ""));
      }
    }
  }

  /**
   * @return true when a fault was given
   */
  public boolean given() {
    return !specs.isEmpty();
  }

  /**
   * Checks the faults against the testbed a run will start, before it starts.
   *
   * @param commandLine the command (for the usage error)
   * @param spec the testbed's spec (its WAN round trip included)
   * @throws ParameterException (exit status 2) naming the spec and its problem ({@link
   *     FaultPlan#of}), or when faults are given on the loopback testbed or {@code nft} is missing
   *     for a kind that needs it
   */
  public void check(CommandLine commandLine, TestbedSpec spec) {
    if (specs.isEmpty()) {
      return;
    }
    if (Testbed.loopbackRequested()) {
      throw new ParameterException(
          commandLine,
          "--fault needs the network-namespace testbed (root, iproute2, nftables), and this run is"
              + " on the loopback variant, which has no links to break");
    }
    FaultPlan plan;
    try {
      plan = FaultPlan.of(specs, TestbedLayout.of(spec));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(commandLine, e.getMessage(), e);
    }
    if (plan.needsNft() && !Exec.onPath("nft")) {
      throw new ParameterException(
          commandLine,
          "--fault: down, loss and partition are applied with nftables, and 'nft' is not installed"
              + " (Debian's package nftables; .ci/run installs it)");
    }
  }

  /**
   * Arms the faults for one run: adds the reduce-stage listener to its settings and starts a
   * session that injects them ({@link FaultSession#finish()} it when the run has ended).
   *
   * @param testbed the running testbed (the namespace variant)
   * @param sparkConf the run's Spark settings, changed in place: {@code spark.extraListeners} and
   *     {@code spark.driver.extraClassPath} extended, {@value ReduceStageSignal#FILE_KEY} set
   * @param signal the run's signal file
   * @param windows what a run is ({@code run-app}: the application; {@code e2e-bench}: each
   *     measured run of its driver)
   * @return the running session, or null when no fault was given
   * @throws IllegalStateException if the testbed is not the namespace variant
   * @throws IllegalArgumentException if a fault does not fit the testbed ({@link #check} it before
   *     the testbed starts)
   * @throws UncheckedIOException if the listener's jar or the signal file cannot be written
   */
  public FaultSession arm(
      Testbed testbed, Map<String, String> sparkConf, Path signal, FaultSession.Windows windows) {
    if (specs.isEmpty()) {
      return null;
    }
    if (!(testbed instanceof NamespaceTestbed ns)) {
      throw new IllegalStateException("faults are injected into the network-namespace testbed");
    }
    FaultPlan plan = FaultPlan.of(specs, ns.layout());
    addListener(sparkConf, listenerJar(signal.toAbsolutePath().getParent()), signal);
    return FaultSession.start(plan, new NamespaceFaultNetwork(ns), signal, windows);
  }

  /**
   * Adds the reduce-stage listener to a run's settings, after any listeners and driver class path
   * they have.
   *
   * @param sparkConf the settings, changed in place
   * @param jar the listener's jar ({@link #listenerJar})
   * @param signal the signal file it writes
   */
  static void addListener(Map<String, String> sparkConf, Path jar, Path signal) {
    sparkConf.merge(
        "spark.extraListeners", ReduceStageSignal.class.getName(), (a, b) -> a + "," + b);
    sparkConf.merge(
        "spark.driver.extraClassPath",
        jar.toAbsolutePath().toString(),
        (a, b) -> a + File.pathSeparator + b);
    sparkConf.put(ReduceStageSignal.FILE_KEY, signal.toAbsolutePath().toString());
  }

  /**
   * @param session a session {@link #arm} returned, or null
   * @return what it injected ({@link FaultSession#finish()}), empty for null
   */
  public static List<FaultRun> finish(FaultSession session) {
    return session == null ? List.of() : session.finish();
  }

  /**
   * Writes what the faults of one application's runs did, as JSON (an array of {@link FaultRun}).
   *
   * @param file where to write (its folder is created)
   * @param runs what {@link #finish} returned
   * @throws UncheckedIOException if it cannot be written
   */
  public static void write(Path file, List<FaultRun> runs) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(
          file,
          new com.fasterxml.jackson.databind.ObjectMapper()
                  .writerWithDefaultPrettyPrinter()
                  .writeValueAsString(runs)
              + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * @return the options as a command line gives them, each preceded by a space ({@code --fault
   *     'SPEC'}), for the reports' "generated by" lines
   */
  public String commandLine() {
    StringBuilder sb = new StringBuilder();
    specs.forEach(s -> sb.append(" --fault '").append(s.text()).append('\''));
    return sb.toString();
  }

  /**
   * Writes a jar holding only {@link ReduceStageSignal}, for the driver's class path.
   *
   * @param dir where to write it
   * @return the jar
   */
  static Path listenerJar(Path dir) {
    Path jar = dir.resolve("fault-signal.jar");
    String entry = ReduceStageSignal.class.getName().replace('.', '/') + ".class";
    try (InputStream in = ReduceStageSignal.class.getClassLoader().getResourceAsStream(entry)) {
      if (in == null) {
        throw new IllegalStateException(entry + " is missing from the class path");
      }
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, "fault-signal", ".jar");
      try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(tmp))) {
        out.putNextEntry(new JarEntry(entry));
        in.transferTo(out);
        out.closeEntry();
      }
      Files.move(tmp, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the fault listener's jar in " + dir, e);
    }
  }
}
