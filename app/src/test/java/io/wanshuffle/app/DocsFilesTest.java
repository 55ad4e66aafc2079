package io.wanshuffle.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The examples run as written: every file the README, the docs, the data folder's notes and the
 * {@code conf/} examples name exists, every relative link of those pages reaches an existing file
 * and heading, and {@code conf/spark-defaults.conf} names the plugin jar the build and the
 * distribution hold.
 */
class DocsFilesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** A repository path in a page: conf/, docs/ or data/ and a file or folder name. */
  private static final Pattern REPO_PATH =
      Pattern.compile(
          "(?<![A-Za-z0-9_./$-])((?:conf|docs|data)/[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)");

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** An HTML anchor in a page, {@code <a id="name"></a>}. */
  private static final Pattern HTML_ANCHOR = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");

  private static List<Path> pages() throws IOException {
    List<Path> out = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    for (String dir : List.of("docs", "data", "conf")) {
      try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
        s.filter(Files::isRegularFile)
            .filter(p -> !p.toString().endsWith(".txt") && !p.toString().endsWith(".png"))
            .forEach(out::add);
      }
    }
    return out;
  }

  @Test
  void everyRepositoryFileAPageOrAnExampleNamesExists() throws IOException {
    List<String> missing = new ArrayList<>();
    int seen = 0;
    for (Path page : pages()) {
      Matcher m = REPO_PATH.matcher(Files.readString(page));
      while (m.find()) {
        String p = m.group(1).replaceAll("[.,:;]+$", "");
        seen++;
        if (!Files.exists(ROOT.resolve(p))) {
          missing.add(ROOT.relativize(page) + ": " + p);
        }
      }
    }
    assertTrue(seen > 50, "paths seen: " + seen);
    assertEquals(List.of(), missing);
  }

  /** GitHub's anchor of a heading: lower case, punctuation dropped, blanks to hyphens. */
  static String slug(String heading) {
    String t = heading.replace("`", "").strip().toLowerCase(Locale.ROOT);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < t.length(); ) {
      int c = t.codePointAt(i);
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        b.appendCodePoint(c);
      } else if (c == ' ') {
        b.append('-');
      }
      i += Character.charCount(c);
    }
    return b.toString();
  }

  private static Set<String> anchors(Path md, Map<Path, Set<String>> cache) throws IOException {
    Set<String> known = cache.get(md);
    if (known == null) {
      known = new HashSet<>();
      Map<String, Integer> count = new HashMap<>();
      boolean fenced = false;
      for (String line : Files.readAllLines(md)) {
        if (line.startsWith("```")) {
          fenced = !fenced;
        }
        Matcher id = HTML_ANCHOR.matcher(line);
        while (id.find()) {
          known.add(id.group(1));
        }
        if (!fenced && line.matches("#{1,6} .*")) {
          String s = slug(line.replaceFirst("#+ ", ""));
          int n = count.merge(s, 1, Integer::sum);
          known.add(n == 1 ? s : s + "-" + (n - 1));
        }
      }
      cache.put(md, known);
    }
    return known;
  }

  @Test
  void everyRelativeLinkReachesAFileAndAHeading() throws IOException {
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> cache = new HashMap<>();
    int links = 0;
    for (Path page : pages()) {
      if (!page.toString().endsWith(".md")) {
        continue;
      }
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("[a-z]+:.*")) {
          continue; // http:, https:, mailto:
        }
        links++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(to)) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
        } else if (hash >= 0 && to.toString().endsWith(".md")) {
          String anchor = target.substring(hash + 1);
          if (!anchors(to, cache).contains(anchor)) {
            broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
          }
        }
      }
    }
    assertTrue(links > 100, "links seen: " + links);
    assertEquals(List.of(), broken);
  }

  /**
   * @return the project's version, from the parent pom
   */
  static String projectVersion() throws IOException {
    Matcher m =
        Pattern.compile("<artifactId>wan-shuffle-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertTrue(m.find(), "the parent pom's version");
    return m.group(1);
  }

  /**
   * {@code conf/spark-defaults.conf} names the Spark 4.1 plugin jar by the file name the build
   * writes ({@code plugin/target/wan-shuffle-spark-4.1_2.13-VERSION.jar}) in the distribution's
   * {@code plugin/} folder, and a topology table the distribution's {@code conf/} holds; each line
   * to edit is marked.
   */
  @Test
  void sparkDefaultsNamesTheJarTheBuildWritesAndMarksTheLinesToEdit() throws IOException {
    String version = projectVersion();
    Map<String, String> keys = new HashMap<>();
    List<String> lines = Files.readAllLines(ROOT.resolve("conf/spark-defaults.conf"));
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.isBlank() && !l.startsWith("#")) {
        String[] kv = l.strip().split("\\s+", 2);
        keys.put(kv[0], kv[1]);
      }
    }
    String dist = "/opt/wan-shuffle-" + version;
    assertEquals(
        dist + "/plugin/wan-shuffle-spark-4.1_2.13-" + version + ".jar", keys.get("spark.jars"));
    assertEquals("io.wanshuffle.spark.WanShuffleManager", keys.get("spark.shuffle.manager"));
    String table = keys.get("spark.hadoop.net.topology.table.file.name");
    assertTrue(table.startsWith(dist + "/conf/"), table);
    assertTrue(Files.isRegularFile(ROOT.resolve(table.substring(dist.length() + 1))), table);
    String text = String.join("\n", lines);
    for (String key :
        List.of("spark.jars", "spark.hadoop.net.topology.table.file.name", "spark.wanshuffle.")) {
      int at = text.indexOf("\n" + key);
      int edit = text.lastIndexOf("# EDIT", at);
      int section = text.lastIndexOf("# ---", at);
      assertTrue(edit > section, key + ": the line to edit is marked in its section");
    }
  }
}
