package io.wanshuffle.it.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Spark lines the plugin is built for, and for a requested Spark version the plugin jar of its
 * line and a Spark home of that exact version, both built on demand with Maven from the project's
 * source tree (so {@code ./wan-shuffle} itself never downloads other lines).
 *
 * <p>A version is {@code MAJOR.MINOR[.PATCH][_SCALA]}, e.g. {@code 3.5.7}, {@code 3.5.8_2.13},
 * {@code 4.2}: any patch version of a supported line runs with that line's plugin jar (compiled
 * against the line's pinned patch, {@link Line#version()}), on a Spark home of the requested patch
 * if Maven Central serves it. Without a Scala suffix Spark 3.5 is Scala 2.12 (its usual
 * distribution) and 4.x Scala 2.13.
 *
 * <p>Spark homes are links to the local Maven repository's jars in {@code
 * spark-lines/spark-home/target/spark-<version>_<scala>/jars}, listed by {@code
 * spark-lines/spark-home/pom.xml} (Maven's {@code dependency:build-classpath}), so lines that agree
 * on a dependency share its download. Line jars come from {@code spark-lines/<line>/target} (the
 * primary line's from {@link AppJars#pluginJar()}), rebuilt when a source is newer.
 */
public final class SparkLines {
  /**
   * One supported line.
   *
   * @param line Spark major.minor, e.g. {@code 3.5}
   * @param scala Scala binary version, e.g. {@code 2.12}
   * @param version the Spark version the line's jar is compiled against and its smoke IT runs
   * @param module the Maven module building its jar, relative to the project root
   */
  public record Line(String line, String scala, String version, String module) {
    /**
     * @return {@code <line>_<scala>}, e.g. {@code 3.5_2.12}: the jar's and module's name part
     */
    public String name() {
      return line + "_" + scala;
    }

    /**
     * @return whether this is the primary line (module {@code plugin}, the full test suite)
     */
    public boolean primary() {
      return module.equals("plugin");
    }

    /**
     * @return the prefix of the line's jar file name, {@code wan-shuffle-spark-<line>_<scala>-}
     */
    public String jarPrefix() {
      return "wan-shuffle-spark-" + name() + "-";
    }
  }

  /**
   * A version to run: a supported line and the exact Spark version of the home.
   *
   * @param line the line whose plugin jar runs
   * @param version the Spark version of the Spark home, e.g. {@code 3.5.7}
   */
  public record Choice(Line line, String version) {
    /**
     * @return {@code <version>_<scala>}, e.g. {@code 3.5.7_2.12}
     */
    public String name() {
      return version + "_" + line.scala();
    }
  }

  /** The supported lines, oldest first. */
  public static final List<Line> SUPPORTED =
      List.of(
          new Line("3.5", "2.12", "3.5.8", "spark-lines/spark-3.5_2.12"),
          new Line("3.5", "2.13", "3.5.8", "spark-lines/spark-3.5_2.13"),
          new Line("4.0", "2.13", "4.0.1", "spark-lines/spark-4.0_2.13"),
          new Line("4.1", "2.13", "4.1.3", "plugin"),
          new Line("4.2", "2.13", "4.2.0", "spark-lines/spark-4.2_2.13"));

  /** System property naming the project root (default: found from this class's location). */
  public static final String ROOT_PROPERTY = "wanshuffle.root";

  private static final Pattern VERSION =
      Pattern.compile("(\\d+)\\.(\\d+)(\\.\\d+)?(?:-[A-Za-z0-9.]+)?(?:_(\\d+\\.\\d+))?");

  private SparkLines() {}

  /**
   * @return the supported lines as users name them, e.g. {@code 3.5 (Scala 2.12, 2.13), 4.0, ...}
   */
  public static String described() {
    return SUPPORTED.stream()
        .collect(
            Collectors.groupingBy(Line::line, java.util.LinkedHashMap::new, Collectors.toList()))
        .entrySet()
        .stream()
        .map(
            e ->
                e.getKey()
                    + " (Scala "
                    + e.getValue().stream().map(Line::scala).collect(Collectors.joining(", "))
                    + ")")
        .collect(Collectors.joining(", "));
  }

  /**
   * @param name {@code <line>_<scala>}, e.g. {@code 3.5_2.12}
   * @return the supported line of that name
   * @throws IllegalArgumentException if none (the message lists the supported lines)
   */
  public static Line line(String name) {
    return SUPPORTED.stream()
        .filter(l -> l.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no Spark line " + name + ": supported lines are " + described()));
  }

  /**
   * @param spec {@code MAJOR.MINOR[.PATCH][_SCALA]}, e.g. {@code 3.5.7}, {@code 3.5_2.13}
   * @return the line and the exact version to run (the line's own version when no patch is given)
   * @throws IllegalArgumentException if the text is no version or names an unsupported line or
   *     Scala version (the message lists the supported lines)
   */
  public static Choice resolve(String spec) {
    Matcher m = VERSION.matcher(spec.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "--spark-version "
              + spec
              + ": not a version (MAJOR.MINOR[.PATCH][_SCALA], e.g. 3.5.7 or 3.5.8_2.13); supported"
              + " lines: "
              + described());
    }
    String line = m.group(1) + "." + m.group(2);
    String scala = m.group(4) != null ? m.group(4) : line.startsWith("3.") ? "2.12" : "2.13";
    Optional<Line> l =
        SUPPORTED.stream()
            .filter(x -> x.line().equals(line) && x.scala().equals(scala))
            .findFirst();
    if (l.isEmpty()) {
      throw new IllegalArgumentException(
          "--spark-version "
              + spec
              + ": Spark "
              + line
              + " with Scala "
              + scala
              + " is not supported; supported lines: "
              + described());
    }
    String version = m.group(3) == null ? l.get().version() : spec.strip().split("_")[0];
    return new Choice(l.get(), version);
  }

  /**
   * @return the project root: system property {@value #ROOT_PROPERTY}, else the first folder
   *     holding {@code spark-lines/pom.xml} above this class's code source, else the working folder
   */
  public static Path root() {
    String prop = System.getProperty(ROOT_PROPERTY);
    if (prop != null && !prop.isBlank()) {
      return Path.of(prop).toAbsolutePath();
    }
    try {
      Path p =
          Path.of(SparkLines.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toAbsolutePath();
      for (; p != null; p = p.getParent()) {
        if (Files.isRegularFile(p.resolve("spark-lines").resolve("pom.xml"))) {
          return p;
        }
      }
    } catch (URISyntaxException | NullPointerException e) {
      // fall through: the working folder
    }
    return Path.of("").toAbsolutePath();
  }

  /**
   * The plugin jar of a line: the primary line's from {@link AppJars#pluginJar()}; another line's
   * from its module's {@code target/}, built first with {@code mvn -pl <module> -am package} when
   * missing or older than a source of the core, of the line's adapters or a pom.
   *
   * @param line the line
   * @param progress where progress messages go
   * @return the jar's absolute path
   * @throws IllegalStateException if the build fails (the message quotes the end of its log)
   */
  public static synchronized Path pluginJar(Line line, Consumer<String> progress) {
    if (line.primary()) {
      return AppJars.pluginJar();
    }
    Path root = root();
    Path target = root.resolve(line.module()).resolve("target");
    Optional<Path> jar = findJar(target, line);
    if (jar.isEmpty() || stale(root, line, jar.get())) {
      progress.accept(
          "wan-shuffle: building the plugin jar for Spark "
              + line.name()
              + " (mvn -pl "
              + line.module()
              + " -am package; first time: downloads Spark "
              + line.version()
              + ")...");
      maven(
          root,
          List.of("-pl", line.module(), "-am", "package", "-DskipTests"),
          root.resolve("spark-lines").resolve("target").resolve("build-" + line.name() + ".log"));
      jar = findJar(target, line);
    }
    return jar.orElseThrow(
            () ->
                new IllegalStateException(
                    "no " + line.jarPrefix() + "*.jar in " + target + " after the build"))
        .toAbsolutePath();
  }

  /**
   * A Spark home of exactly {@code choice.version()} for the line's Scala version, built on first
   * use: Maven resolves spark-core and spark-sql of that version ({@code
   * spark-lines/spark-home/pom.xml}) and the home links their jars.
   *
   * @param choice the version
   * @param progress where progress messages go
   * @return the checked Spark home
   * @throws IllegalStateException if Maven cannot resolve the version (e.g. Maven Central does not
   *     serve it; the message quotes the end of Maven's log)
   */
  public static synchronized SparkHome home(Choice choice, Consumer<String> progress) {
    Path root = root();
    Path pom = root.resolve("spark-lines").resolve("spark-home").resolve("pom.xml");
    Path dir =
        root.resolve("spark-lines")
            .resolve("spark-home")
            .resolve("target")
            .resolve("spark-" + choice.name());
    Path classPath = dir.resolve("classpath.txt");
    if (!Files.isRegularFile(classPath)) {
      progress.accept(
          "wan-shuffle: building a Spark home of Spark "
              + choice.version()
              + " (Scala "
              + choice.line().scala()
              + ") from Maven jars in "
              + dir
              + " (first time: downloads them)...");
      maven(
          root,
          List.of(
              "-f",
              pom.toString(),
              "generate-resources",
              "-Dspark.home.version=" + choice.version(),
              "-Dspark.home.scala=" + choice.line().scala(),
              "-Dspark.home.dir=" + dir),
          dir.resolveSibling("build-" + choice.name() + ".log"));
    }
    try {
      List<Path> jars =
          Arrays.stream(Files.readString(classPath).strip().split(java.io.File.pathSeparator))
              .filter(s -> !s.isBlank())
              .map(Path::of)
              .toList();
      return SparkHome.linkJars(dir, jars);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + classPath, e);
    }
  }

  private static Optional<Path> findJar(Path target, Line line) {
    if (!Files.isDirectory(target)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(target)) {
      return s.filter(
              p -> {
                String n = p.getFileName().toString();
                return n.startsWith(line.jarPrefix()) && n.endsWith(".jar");
              })
          .findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a source of the core, the line's adapters or a pom is newer than {@code jar}. */
  private static boolean stale(Path root, Line line, Path jar) {
    try {
      long built = Files.getLastModifiedTime(jar).toMillis();
      List<Path> sources =
          List.of(
              root.resolve("plugin").resolve("src").resolve("main"),
              root.resolve("spark-lines").resolve("src"),
              root.resolve(line.module()).resolve("pom.xml"),
              root.resolve("spark-lines").resolve("pom.xml"),
              root.resolve("pom.xml"),
              root.resolve("scheduler-core").resolve("src").resolve("main"));
      for (Path s : sources) {
        if (!Files.exists(s)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(s)) {
          if (files.anyMatch(f -> newer(f, built))) {
            return true;
          }
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean newer(Path f, long than) {
    try {
      return Files.isRegularFile(f) && Files.getLastModifiedTime(f).toMillis() > than;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Runs {@code mvn -q -B -ntp <args>} in {@code root}, output to {@code log}.
   *
   * @throws IllegalStateException if Maven cannot be started or exits with an error (the message
   *     quotes the end of the log)
   */
  private static void maven(Path root, List<String> args, Path log) {
    List<String> cmd = new ArrayList<>(List.of("mvn", "-q", "-B", "-ntp"));
    cmd.addAll(args);
    try {
      Files.createDirectories(log.getParent());
      Process p =
          new ProcessBuilder(cmd)
              .directory(root.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      int rc = p.waitFor();
      if (rc != 0) {
        List<String> lines = Files.readAllLines(log);
        throw new IllegalStateException(
            String.join(" ", cmd)
                + " failed (exit "
                + rc
                + ", log "
                + log
                + "):\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run Maven (" + String.join(" ", cmd) + "): " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + String.join(" ", cmd), e);
    }
  }
}
