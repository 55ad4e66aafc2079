package io.wanshuffle.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The download, {@code wan-shuffle-VERSION-bin.tar.gz}, as a Spark user unpacks it: the plugin jar
 * of every Spark line, the conf examples, every doc, the trace, the README, and the launcher with
 * the command line's jars, which runs without Maven.
 */
class DistributionTest {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final String VERSION = System.getProperty("wanshuffle.dist.version");
  private static final String TOP = "wan-shuffle-" + VERSION + "/";

  /** Every entry's path below the top folder, and its mode. */
  private static final Map<String, Integer> MODES = new TreeMap<>();

  /** The entries' contents, for the small ones read by the checks. */
  private static final Map<String, byte[]> CONTENT = new TreeMap<>();

  @BeforeAll
  static void readTheArchive() throws IOException {
    Path archive = Path.of(System.getProperty("wanshuffle.dist.archive"));
    assertTrue(
        archive.getFileName().toString().equals("wan-shuffle-" + VERSION + "-bin.tar.gz"),
        archive.toString());
    try (TarArchiveInputStream in =
        new TarArchiveInputStream(new GzipCompressorInputStream(Files.newInputStream(archive)))) {
      for (TarArchiveEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        assertTrue(e.getName().startsWith(TOP), "everything under " + TOP + ": " + e.getName());
        if (e.isDirectory()) {
          continue;
        }
        String name = e.getName().substring(TOP.length());
        MODES.put(name, e.getMode());
        if (!name.startsWith("lib/") || name.equals("lib/classpath")) {
          CONTENT.put(name, in.readAllBytes());
        }
      }
    }
  }

  private static Set<String> under(String folder) {
    Set<String> out = new TreeSet<>();
    for (String n : MODES.keySet()) {
      if (n.startsWith(folder)) {
        out.add(n.substring(folder.length()));
      }
    }
    return out;
  }

  private static Set<String> repoFiles(String folder) throws IOException {
    Path dir = REPO.resolve(folder);
    try (Stream<Path> s = Files.walk(dir)) {
      return new TreeSet<>(
          s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).toList());
    }
  }

  @Test
  void thePluginJarOfEverySparkLineHoldsTheShuffleManager() throws IOException {
    Set<String> expected = new TreeSet<>();
    for (String line : List.of("3.5_2.12", "3.5_2.13", "4.0_2.13", "4.1_2.13", "4.2_2.13")) {
      expected.add("wan-shuffle-spark-" + line + "-" + VERSION + ".jar");
    }
    assertEquals(expected, under("plugin/"));
    for (String jar : expected) {
      Set<String> classes = new TreeSet<>();
      try (JarInputStream j =
          new JarInputStream(new ByteArrayInputStream(CONTENT.get("plugin/" + jar)))) {
        for (JarEntry e = j.getNextJarEntry(); e != null; e = j.getNextJarEntry()) {
          classes.add(e.getName());
        }
      }
      assertTrue(classes.contains("io/wanshuffle/spark/WanShuffleManager.class"), jar);
      assertTrue(
          classes.stream().anyMatch(c -> c.startsWith("io/wanshuffle/shaded/scheduler/")),
          jar + " carries scheduler-core, relocated");
      assertTrue(classes.stream().noneMatch(c -> c.startsWith("org/apache/spark/")), jar);
    }
  }

  @Test
  void theConfExamplesTheDocsTheTraceAndTheReadmeAreTheRepositorys() throws IOException {
    assertEquals(repoFiles("conf"), under("conf/"));
    assertEquals(repoFiles("docs"), under("docs/"));
    assertEquals(repoFiles("data"), under("data/"));
    assertTrue(under("docs/").contains("install.md"));
    assertTrue(under("data/").contains("coflow-benchmark/FB2010-1Hr-150-0.txt"));
    assertEquals(
        Files.readString(REPO.resolve("conf/spark-defaults.conf")),
        new String(CONTENT.get("conf/spark-defaults.conf"), StandardCharsets.UTF_8));
    assertTrue(MODES.containsKey("README.md"));
  }

  /** conf/spark-defaults.conf names the Spark 4.1 jar where the archive unpacked in /opt has it. */
  @Test
  void sparkDefaultsNamesAJarOfTheArchive() {
    String conf = new String(CONTENT.get("conf/spark-defaults.conf"), StandardCharsets.UTF_8);
    String prefix = "/opt/" + TOP;
    String jarLine =
        conf.lines().filter(l -> l.startsWith("spark.jars ")).findFirst().orElseThrow();
    String jar = jarLine.substring("spark.jars".length()).strip();
    assertTrue(jar.startsWith(prefix), jar);
    assertTrue(MODES.containsKey(jar.substring(prefix.length())), jar);
  }

  @Test
  void theLaunchersClassPathIsExactlyTheJarsOfLib() {
    assertEquals(0755, MODES.get("wan-shuffle") & 0777, "the launcher is executable");
    String cp = new String(CONTENT.get("lib/classpath"), StandardCharsets.UTF_8).strip();
    Set<String> listed = new TreeSet<>();
    for (String entry : cp.split(":")) {
      assertTrue(entry.startsWith("lib/") && entry.endsWith(".jar"), entry);
      listed.add(entry.substring("lib/".length()));
    }
    Set<String> jars = under("lib/");
    jars.remove("classpath");
    assertEquals(jars, listed);
    assertTrue(cp.startsWith("lib/wan-shuffle-app-" + VERSION + ".jar:"), "the app first");
    assertTrue(listed.contains("spark-core_2.13-4.1.3.jar"), "Spark, for the testbed commands");
    assertTrue(listed.stream().anyMatch(j -> j.startsWith("tpch-")), "the TPC-H generator");
  }

  /** Unpacked, the launcher runs the command line with Java alone. */
  @Test
  void theUnpackedLauncherRunsWithoutMaven(@TempDir Path dir) throws Exception {
    Path archive = Path.of(System.getProperty("wanshuffle.dist.archive"));
    Process tar =
        new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", dir.toString())
            .redirectErrorStream(true)
            .start();
    assertTrue(tar.waitFor(300, TimeUnit.SECONDS) && tar.exitValue() == 0, "tar -xzf");
    Path home = dir.resolve(TOP);
    assertEquals(
        "rwxr-xr-x",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("wan-shuffle"))));
    Path matrix = Files.writeString(dir.resolve("m.csv"), "7,3\n0,1\n");
    List<String> out =
        run(
            home,
            "plan",
            "--matrix",
            matrix.toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--format",
            "json");
    assertTrue(out.get(0).contains("\"cost\":12.0,\"lowerBound\":12.0"), String.join("\n", out));
    assertTrue(run(home, "--version").get(0).matches("wan-shuffle \\S+"));
    assertTrue(
        Files.notExists(home.resolve(".wan-shuffle")),
        "the launcher ran lib/'s jars: it never started a build");
  }

  /**
   * @return stdout of {@code ./wan-shuffle args}, run in {@code home}
   */
  private static List<String> run(Path home, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(home.resolve("wan-shuffle").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile());
    Path java = Path.of(System.getProperty("java.home"), "bin");
    pb.environment().put("PATH", java + ":" + System.getenv("PATH"));
    Process p = pb.redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String text;
    try (InputStream in = p.getInputStream()) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher ends");
    assertEquals(0, p.exitValue(), text);
    return text.lines().toList();
  }
}
