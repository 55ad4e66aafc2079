package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The plugin jar users pass to {@code spark-submit --jars}: bundles our classes, scheduler-core,
 * JGraphT, jheaps and Apache Curator (the arbiter's ZooKeeper client) relocated under {@code
 * io.wanshuffle.shaded}, and nothing Spark provides (Spark, Scala, Hadoop, Jackson, Kryo, metrics,
 * logging, ZooKeeper).
 */
class ShadedJarContentsIT {
  static List<String> entries = new ArrayList<>();
  static Path jar;

  @BeforeAll
  static void open() throws IOException {
    jar = Path.of(System.getProperty("wanshuffle.pluginJar", "target/none.jar"));
    assertTrue(Files.isRegularFile(jar), "shaded jar missing: " + jar);
    try (JarFile jf = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements(); ) {
        entries.add(e.nextElement().getName());
      }
    }
  }

  private static long count(String prefix) {
    return entries.stream().filter(n -> n.startsWith(prefix) && n.endsWith(".class")).count();
  }

  @Test
  void bundlesOurClassesAndRelocatedLibraries() {
    assertTrue(entries.contains("io/wanshuffle/spark/capture/CaptureListener.class"));
    assertTrue(entries.contains("io/wanshuffle/spark/coordinator/StepCoordinator.class"));
    assertTrue(count("io/wanshuffle/shaded/scheduler/") > 10, "scheduler-core relocated");
    assertTrue(count("io/wanshuffle/shaded/org/jgrapht/") > 100, "JGraphT relocated");
    assertTrue(count("io/wanshuffle/shaded/org/jheaps/") > 10, "jheaps relocated");
    assertTrue(
        count("io/wanshuffle/shaded/org/apache/curator/framework/recipes/cache/") > 10,
        "Curator relocated, whatever Curator the line's Spark ships");
    assertTrue(entries.contains("io/wanshuffle/spark/arbiter/ZooKeeperShare.class"));
  }

  @Test
  void bundlesNothingSparkProvides() {
    List<String> forbidden =
        List.of(
            "org/apache/spark/",
            "scala/",
            "org/apache/hadoop/",
            "com/fasterxml/",
            "com/esotericsoftware/",
            "com/codahale/",
            "org/slf4j/",
            "org/apache/logging/",
            "io/netty/",
            "com/google/",
            "org/objenesis/",
            "org/apache/zookeeper/",
            // unrelocated copies of what we bundle
            "io/wanshuffle/scheduler/",
            "org/jgrapht/",
            "org/jheaps/",
            "org/apache/curator/");
    List<String> bad =
        entries.stream().filter(n -> forbidden.stream().anyMatch(n::startsWith)).toList();
    assertEquals(List.of(), bad);
    List<String> outside =
        entries.stream()
            .filter(n -> n.endsWith(".class") && !n.startsWith("io/wanshuffle/"))
            .toList();
    assertEquals(List.of(), outside, "classes outside io/wanshuffle");
  }

  @Test
  void noClassReferencesAnUnrelocatedPackage() throws IOException {
    List<String> bad = new ArrayList<>();
    try (JarFile jf = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements(); ) {
        JarEntry je = e.nextElement();
        if (!je.getName().endsWith(".class")) {
          continue;
        }
        try (InputStream in = jf.getInputStream(je)) {
          String constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
          // maven-shade does not rewrite the signature strings that $deserializeLambda$ compares
          // (JGraphT's serializable lambdas); they matter only when deserialising such a lambda,
          // which the plugin never does. Every other reference must be relocated.
          if (constants.contains("$deserializeLambda$")) {
            constants = constants.replaceAll("\\([^()]*\\)L[^;]*;", "");
          }
          for (String p :
              List.of(
                  "io/wanshuffle/scheduler/",
                  "org/jgrapht/",
                  "org/jheaps/",
                  "org/apache/curator/")) {
            if (constants.replace("io/wanshuffle/shaded/" + p, "").contains(p)) {
              bad.add(je.getName() + " -> " + p);
            }
          }
        }
      }
    }
    assertEquals(List.of(), bad);
  }

  @Test
  void registersTheHistoryServerPluginByServiceFile() throws IOException {
    String service = "META-INF/services/org.apache.spark.status.AppHistoryServerPlugin";
    assertTrue(entries.contains(service), "the History Server finds the WAN Shuffle tab");
    try (JarFile jf = new JarFile(jar.toFile())) {
      String text =
          new String(
              jf.getInputStream(jf.getEntry(service)).readAllBytes(), StandardCharsets.UTF_8);
      assertEquals("io.wanshuffle.spark.ui.WanShuffleHistoryServerPlugin", text.strip());
    }
    assertTrue(entries.contains("io/wanshuffle/spark/ui/WanShuffleHistoryServerPlugin.class"));
  }
}
