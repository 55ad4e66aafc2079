package io.wanshuffle.it.spark;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Teardown;
import io.wanshuffle.it.net.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a cluster of daemon JVMs on a {@link Testbed} has whatever its manager (Spark standalone,
 * YARN): its run folder with the testbed's topology table and topology file, the daemons it started
 * (each recorded in the folder's PID record, {@link DaemonRecord}) and their teardown.
 *
 * <p>Teardown ({@link #close()}, or its {@link Teardown} at JVM exit): SIGTERM to every daemon and
 * its descendants (executors, containers), SIGKILL after 5 s; the PID record is removed, logs stay.
 */
public abstract sealed class DaemonCluster implements AutoCloseable
    permits SparkCluster, YarnCluster {
  private static final Duration KILL_GRACE = Duration.ofSeconds(5);

  /** The hosts. */
  protected final Testbed testbed;

  /** The run folder, absolute. */
  protected final Path runDir;

  /** Starts the daemons and the drivers with the cluster's environment. */
  protected final SparkJvms jvms;

  private final List<Daemon> daemons = new CopyOnWriteArrayList<>();
  private final Teardown teardown;

  /**
   * @param testbed the hosts
   * @param runDir the run folder, absolute and created ({@link DaemonStart#prepare})
   * @param jvms how the cluster's JVMs start
   */
  DaemonCluster(Testbed testbed, Path runDir, SparkJvms jvms) {
    this.testbed = testbed;
    this.runDir = runDir;
    this.jvms = jvms;
    this.teardown = Teardown.register(Teardown.SPARK_PRIORITY, this::stopDaemons);
  }

  /**
   * @return the testbed the cluster runs on
   */
  public Testbed testbed() {
    return testbed;
  }

  /**
   * @return the run folder (absolute)
   */
  public Path runDir() {
    return runDir;
  }

  /**
   * @return the topology table (Hadoop {@code TableMapping} format, {@link
   *     Testbed#writeTopologyTable}) the plugin reads, and on YARN the ResourceManager and Spark's
   *     YARN allocator too
   */
  public Path topologyTable() {
    return runDir.resolve("topology.table");
  }

  /**
   * @return the testbed's link model in the {@code plan --topology} format ({@link
   *     Testbed#writeTopologyConfig}), {@code topology.conf} beside {@link #topologyTable()}, whose
   *     {@code mapping.table} names that table by its file name
   */
  public Path topologyConfig() {
    return runDir.resolve("topology.conf");
  }

  /**
   * Writes {@link #topologyTable()} and {@link #topologyConfig()} for the testbed.
   *
   * @throws IOException if a file cannot be written
   */
  void writeTopology() throws IOException {
    testbed.writeTopologyTable(topologyTable());
    testbed.writeTopologyConfig(topologyConfig(), topologyTable().getFileName().toString());
  }

  /**
   * Starts a daemon JVM on a host, records it for teardown and in the PID record.
   *
   * @param name the daemon's name (its log is {@code <runDir>/<name>.log})
   * @param host where it runs
   * @param heap its {@code -Xmx} (JVM size, e.g. {@code 256m})
   * @param classPath its class path
   * @param mainClass its main class
   * @param args its arguments
   * @param localDir its {@code SPARK_LOCAL_DIRS}, or null
   * @return the running daemon
   * @throws IOException if the JVM cannot be started or the record not written
   */
  Daemon startDaemon(
      String name,
      Node host,
      String heap,
      String classPath,
      String mainClass,
      List<String> args,
      Path localDir)
      throws IOException {
    Process p =
        jvms.start(host, name, List.of("-Xmx" + heap), classPath, mainClass, args, localDir, null);
    Daemon d = new Daemon(name, p, jvms.log(name));
    daemons.add(d);
    DaemonRecord.add(runDir, d.handle());
    return d;
  }

  private List<ProcessHandle> tree() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Daemon d : daemons) {
      d.handle().descendants().forEach(all::add);
      all.add(d.handle());
    }
    return all;
  }

  /**
   * @return the live daemon processes and their descendants (executors, containers), for leak
   *     checks
   */
  List<ProcessHandle> processes() {
    return tree().stream().filter(ProcessHandle::isAlive).toList();
  }

  /**
   * Stops every daemon and what it started: SIGTERM, SIGKILL after 5 s; removes the PID record.
   * Idempotent; logs stay in the run folder. Drivers started by the cluster's launch methods are
   * the caller's to stop.
   *
   * @throws UncheckedIOException if the PID record cannot be removed (the processes are gone)
   */
  @Override
  public void close() {
    teardown.close();
  }

  private void stopDaemons() {
    Daemon.killAll(tree(), KILL_GRACE);
    try {
      DaemonRecord.remove(runDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
