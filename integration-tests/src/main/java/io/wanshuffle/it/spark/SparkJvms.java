package io.wanshuffle.it.spark;

import io.wanshuffle.it.net.Node;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts Java programs (the Master, Workers, drivers) on the hosts of a testbed with Spark's
 * environment: through the host's launch prefix ({@code ip netns exec <ns>}, or nothing), with this
 * JVM's {@code java}, {@code SPARK_HOME}, {@code SPARK_SCALA_VERSION}, {@code SPARK_LOCAL_IP} and
 * {@code SPARK_LOCAL_HOSTNAME} = the host's address, {@code SPARK_CONF_DIR} = {@code
 * <runDir>/conf}, optionally {@code SPARK_LOCAL_DIRS}, the deployment's own variables (YARN's
 * {@code HADOOP_CONF_DIR}), Spark's JVM module options and the deployment's own JVM options; output
 * to {@code <runDir>/<name>.log}.
 */
final class SparkJvms {
  private final SparkHome sparkHome;
  private final Path runDir;
  private final List<String> jvmOptions;
  private final Map<String, String> extraEnv;

  /**
   * @param sparkHome the Spark home the programs run with
   * @param runDir folder of the logs and of {@code conf/}
   * @param jvmOptions JVM options of every program started
   */
  SparkJvms(SparkHome sparkHome, Path runDir, List<String> jvmOptions) {
    this(sparkHome, runDir, jvmOptions, Map.of());
  }

  /**
   * @param sparkHome the Spark home the programs run with
   * @param runDir folder of the logs and of {@code conf/}
   * @param jvmOptions JVM options of every program started
   * @param extraEnv environment variables of every program started, over Spark's (e.g. {@code
   *     HADOOP_CONF_DIR})
   */
  SparkJvms(
      SparkHome sparkHome, Path runDir, List<String> jvmOptions, Map<String, String> extraEnv) {
    this.sparkHome = sparkHome;
    this.runDir = runDir;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.extraEnv = Map.copyOf(extraEnv);
  }

  /**
   * Starts {@code <prefix> java <jvmArgs> <options> -cp <classPath> <mainClass> <args>} on a host,
   * stdin from {@code /dev/null}.
   *
   * @param host where it runs
   * @param name log name: stdout and stderr go to {@code <runDir>/<name>.log}
   * @param jvmArgs the program's own JVM options (heap, ...)
   * @param classPath its class path
   * @param mainClass its main class
   * @param args its arguments
   * @param localDir {@code SPARK_LOCAL_DIRS} (created), or null to leave it unset
   * @param stdout file for the program's stdout alone (stderr, where Spark logs, goes to the log);
   *     null: both to the log
   * @return the process; behind {@code ip netns exec} its PID is still the JVM's (exec replaces
   *     itself)
   * @throws IOException if a folder cannot be created or the program cannot be started
   */
  Process start(
      Node host,
      String name,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args,
      Path localDir,
      Path stdout)
      throws IOException {
    return start(host, name, jvmArgs, classPath, mainClass, args, localDir, stdout, null);
  }

  /**
   * As {@link #start(Node, String, List, String, String, List, Path, Path)}, in a given working
   * directory.
   *
   * @param workDir the program's working directory, or null for this JVM's
   * @return the process
   * @throws IOException if a folder cannot be created or the program cannot be started
   */
  Process start(
      Node host,
      String name,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args,
      Path localDir,
      Path stdout,
      Path workDir)
      throws IOException {
    List<String> cmd = new ArrayList<>(host.launchPrefix());
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.addAll(jvmOptions);
    cmd.addAll(SparkHome.javaModuleOptions());
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(mainClass);
    cmd.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    if (workDir != null) {
      pb.directory(workDir.toFile());
    }
    File log = log(name).toFile();
    if (stdout == null) {
      pb.redirectErrorStream(true).redirectOutput(log);
    } else {
      pb.redirectOutput(stdout.toFile()).redirectError(log);
    }
    pb.environment().putAll(env(host.address(), localDir));
    return pb.start();
  }

  /**
   * @param name a log name given to {@link #start}
   * @return the program's log file
   */
  Path log(String name) {
    return runDir.resolve(name + ".log");
  }

  private Map<String, String> env(String address, Path localDir) throws IOException {
    Path conf = Files.createDirectories(runDir.resolve("conf"));
    Map<String, String> env = new HashMap<>();
    env.put("SPARK_HOME", sparkHome.dir().toString());
    env.put("SPARK_SCALA_VERSION", sparkHome.scalaVersion());
    env.put("SPARK_LOCAL_IP", address);
    env.put("SPARK_LOCAL_HOSTNAME", address);
    env.put("SPARK_CONF_DIR", conf.toString());
    if (localDir != null) {
      env.put("SPARK_LOCAL_DIRS", Files.createDirectories(localDir).toString());
    }
    env.putAll(extraEnv);
    return env;
  }
}
