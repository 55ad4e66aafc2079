package io.wanshuffle.it.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YarnHomeTest {
  @TempDir Path dir;

  private Path jar(String folder, String name) throws Exception {
    Path f = Files.createDirectories(dir.resolve(folder));
    return Files.writeString(f.resolve(name), "");
  }

  @Test
  void aCompleteFolderOpensWithTheDaemonsClassPathConfigurationFirst() throws Exception {
    jar("jars", "spark-core_2.13-4.2.0.jar");
    jar("jars", "spark-yarn_2.13-4.2.0.jar");
    jar("hadoop", "hadoop-client-minicluster-3.4.2.jar");
    YarnHome h = YarnHome.at(dir);
    assertEquals(dir.toAbsolutePath(), h.sparkHome().dir());
    Path conf = dir.resolve("conf");
    assertEquals(
        conf
            + ":"
            + dir.toAbsolutePath().resolve("hadoop")
            + "/*:"
            + dir.toAbsolutePath()
            + "/jars/*",
        h.daemonClassPath(conf));
  }

  @Test
  void aMissingPartIsNamedWithHowToBuildIt() throws Exception {
    IllegalStateException none = assertThrows(IllegalStateException.class, () -> YarnHome.at(dir));
    assertTrue(none.getMessage().contains("mvn -pl spark-home-yarn package"), none.getMessage());
    jar("jars", "spark-core_2.13-4.2.0.jar");
    IllegalStateException noYarn =
        assertThrows(IllegalStateException.class, () -> YarnHome.at(dir));
    assertTrue(noYarn.getMessage().contains("no spark-yarn_2.13-*.jar"), noYarn.getMessage());
    jar("jars", "spark-yarn_2.13-4.2.0.jar");
    IllegalStateException noServers =
        assertThrows(IllegalStateException.class, () -> YarnHome.at(dir));
    assertTrue(
        noServers.getMessage().contains("no hadoop-client-minicluster-*.jar"),
        noServers.getMessage());
  }
}
