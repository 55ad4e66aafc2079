package io.wanshuffle.it.concurrent;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Teardown;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.io.FileUtils;

/**
 * One ZooKeeper server (org.apache.zookeeper 3.9.5 from Maven Central) on a testbed host, for the
 * wan-shuffle arbiter ({@code spark.wanshuffle.arbiter.zookeeper}): its own JVM ({@link
 * ZooKeeperMain}) in the host's network namespace, a temporary data folder, no admin server; {@link
 * #close()} (or the JVM's exit) kills it and deletes the folder. Its log is {@code
 * <dir>/zookeeper.log}.
 */
public final class ZooKeeperServer implements AutoCloseable {
  /** System property naming the folder of the server's jars (else the build's). */
  public static final String JARS_PROPERTY = "wanshuffle.it.zookeeperJars";

  /** Where the build copies the server's jars, under {@code integration-tests/}. */
  static final Path BUILT_JARS = Path.of("target", "zookeeper-server");

  /** ZooKeeper's tick, ms: sessions of 2 to 40 s (the plugin's default timeout, 10 s, inside). */
  static final int TICK_MS = 2000;

  private final Process process;
  private final Path data;
  private final String connectString;
  private final Teardown teardown;

  private ZooKeeperServer(Process process, Path data, String connectString) {
    this.process = process;
    this.data = data;
    this.connectString = connectString;
    this.teardown = Teardown.register(Teardown.SPARK_PRIORITY, this::stop);
  }

  /**
   * Starts the server on {@code host} and waits until it accepts connections.
   *
   * @param host the testbed host (the driver's: the control host)
   * @param dir folder for its log (created)
   * @return the running server
   * @throws IllegalStateException if its jars are missing (the message says how to build them) or
   *     it is not ready within 60 s (the end of its log quoted)
   * @throws UncheckedIOException if its files cannot be written or the JVM cannot start
   */
  public static ZooKeeperServer start(Node host, Path dir) {
    try {
      Files.createDirectories(dir);
      Path data = Files.createTempDirectory("wan-shuffle-zookeeper-");
      int port = freePort();
      Path cfg = data.resolve("zoo.cfg");
      Files.writeString(
          cfg,
          String.join(
              "\n",
              "tickTime=" + TICK_MS,
              "dataDir=" + data.resolve("data"),
              "clientPort=" + port,
              "clientPortAddress=" + host.address(),
              "admin.enableServer=false",
              "4lw.commands.whitelist=",
              ""));
      List<String> cmd = new ArrayList<>(host.launchPrefix());
      cmd.addAll(
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx128m",
              "-cp",
              classPath(jars()),
              ZooKeeperMain.class.getName(),
              cfg.toString(),
              host.address(),
              Integer.toString(port)));
      Path log = dir.resolve("zookeeper.log");
      Process p =
          new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      ZooKeeperServer s = new ZooKeeperServer(p, data, host.address() + ":" + port);
      s.awaitReady(log);
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start ZooKeeper: " + e.getMessage(), e);
    }
  }

  /**
   * @return {@code address:port}, the value of {@code spark.wanshuffle.arbiter.zookeeper}
   */
  public String connectString() {
    return connectString;
  }

  @Override
  public void close() {
    teardown.close();
  }

  private void stop() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    FileUtils.deleteQuietly(data.toFile());
  }

  private void awaitReady(Path log) throws IOException {
    long deadline = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < deadline) {
      String text = Files.exists(log) ? Files.readString(log) : "";
      if (text.contains(ZooKeeperMain.READY)) {
        return;
      }
      if (!process.isAlive()) {
        break;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    String text = Files.exists(log) ? Files.readString(log) : "";
    close();
    throw new IllegalStateException(
        "ZooKeeper did not start on "
            + connectString
            + "; end of "
            + log
            + ":\n"
            + text.substring(Math.max(0, text.length() - 2000)));
  }

  /**
   * @return the server's two jars: the folder {@value #JARS_PROPERTY} names, else the build's
   *     ({@code integration-tests/target/zookeeper-server} from the project's root or this module)
   * @throws IllegalStateException when neither holds them
   */
  static List<Path> jars() throws IOException {
    List<Path> folders = new ArrayList<>();
    String prop = System.getProperty(JARS_PROPERTY);
    if (prop != null && !prop.isBlank()) {
      folders.add(Path.of(prop));
    }
    folders.add(Path.of("integration-tests").resolve(BUILT_JARS));
    folders.add(BUILT_JARS);
    for (Path f : folders) {
      if (Files.isDirectory(f)) {
        try (Stream<Path> s = Files.list(f)) {
          List<Path> jars =
              s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
          if (jars.size() >= 2) {
            return jars.stream().map(Path::toAbsolutePath).toList();
          }
        }
      }
    }
    throw new IllegalStateException(
        "ZooKeeper's server jars not found in "
            + folders
            + "; build them with 'mvn -pl integration-tests -am package -DskipTests' (the"
            + " launcher does) or set -D"
            + JARS_PROPERTY);
  }

  /**
   * @param server the server's jars
   * @return them, then this JVM's class path without its own ZooKeeper jars (what the server needs
   *     besides: SLF4J, Netty, metrics, Snappy)
   */
  static String classPath(List<Path> server) {
    List<String> cp = new ArrayList<>(server.stream().map(Path::toString).toList());
    Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !Path.of(e).getFileName().toString().startsWith("zookeeper"))
        .forEach(cp::add);
    return String.join(File.pathSeparator, cp);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
