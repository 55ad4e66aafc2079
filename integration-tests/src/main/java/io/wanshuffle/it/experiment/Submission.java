package io.wanshuffle.it.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An application to run with spark-submit ({@link AppRunner#submit}).
 *
 * @param jar the application's jar (spark-submit's primary resource)
 * @param mainClass its main class, or null for the jar manifest's {@code Main-Class}
 * @param args its arguments
 * @param conf its Spark configuration (spark-submit's {@code --conf}), normally {@link
 *     AppRunner#clusterConf(String)} plus the application's own settings (and {@link
 *     AppRunner#wanShuffleConf(String)} for the plugin)
 * @param jars extra jars for the driver and the executors (spark-submit's {@code --jars}), e.g. the
 *     plugin's
 * @param driverMemory the driver JVM's heap (JVM size syntax, e.g. {@code 1g})
 */
public record Submission(
    Path jar,
    String mainClass,
    List<String> args,
    Map<String, String> conf,
    List<Path> jars,
    String driverMemory) {
  /** Copies the lists and the map. */
  public Submission {
    args = List.copyOf(args);
    conf = Map.copyOf(conf);
    jars = List.copyOf(jars);
  }

  /**
   * spark-submit's arguments for this application with the settings {@code conf} (the run's: this
   * submission's {@link #conf()} with what the run adds): master, deploy mode, main class, {@code
   * --jars}, {@code --files} (the settings' {@value PluginSettings#FILES}), every other setting as
   * {@code --conf}, the jar and its arguments.
   *
   * @param masterUrl the master ({@code spark://host:port}, {@code yarn})
   * @param deployMode {@code client} or {@code cluster}
   * @param conf the run's Spark settings
   * @return the arguments, in that order
   */
  List<String> sparkSubmitArgs(String masterUrl, String deployMode, Map<String, String> conf) {
    List<String> out = new ArrayList<>(List.of("--master", masterUrl, "--deploy-mode", deployMode));
    if (mainClass != null) {
      out.addAll(List.of("--class", mainClass));
    }
    if (!jars.isEmpty()) {
      out.addAll(List.of("--jars", String.join(",", jars.stream().map(Path::toString).toList())));
    }
    String files = conf.get(PluginSettings.FILES);
    if (files != null && !files.isBlank()) {
      out.addAll(List.of("--files", files));
    }
    conf.forEach(
        (k, v) -> {
          if (!k.equals(PluginSettings.FILES)) {
            out.addAll(List.of("--conf", k + "=" + v));
          }
        });
    out.add(jar.toString());
    out.addAll(args);
    return out;
  }
}
