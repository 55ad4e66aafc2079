package io.wanshuffle.it.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YarnClusterTest {
  @TempDir Path dir;

  @Test
  void theDefaultContainersFitOneExecutorAndOneApplicationMasterPerHost() {
    YarnCluster.Options o = YarnCluster.Options.defaults();
    assertEquals(896, o.amContainerMb(), "cluster-mode AM: 512 MB heap + 384 MB");
    assertEquals(512, o.executorOverheadMb());
    assertEquals(1920, o.nodeMemoryMb());
  }

  @Test
  void aHostNeverFitsTwoExecutorsWhateverTheSizes() {
    for (int exec : new int[] {128, 256, 512, 640, 1000, 2048}) {
      for (int driver : new int[] {128, 512, 1024, 3000}) {
        YarnCluster.Options o = new YarnCluster.Options(exec, driver);
        int container = ((exec + 127) / 128) * 128 + o.executorOverheadMb();
        String what = exec + "/" + driver + ": " + o;
        assertTrue(o.executorOverheadMb() >= 384, what);
        assertTrue(container > o.amContainerMb(), what);
        assertEquals(o.nodeMemoryMb(), container + o.amContainerMb(), what);
        assertTrue(2 * container > o.nodeMemoryMb(), "no two executors: " + what);
        assertTrue(o.amContainerMb() >= 640, "a client-mode AM fits too: " + what);
        assertEquals(0, o.nodeMemoryMb() % 128, what);
      }
    }
  }

  @Test
  void tooSmallSizesAreRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new YarnCluster.Options(64, 512));
    assertTrue(e.getMessage().contains("at least 128 MB, got 64 and 512"), e.getMessage());
  }

  @Test
  void theApplicationIdIsReadFromSparkSubmitsLog() throws Exception {
    Path log =
        Files.writeString(
            dir.resolve("driver.log"),
            "26/11/27 06:13:01 INFO Client: Requesting a new application\n"
                + "26/11/27 06:13:02 INFO YarnClientImpl: Submitted application"
                + " application_1795759966819_0002\n");
    assertEquals(Optional.of("application_1795759966819_0002"), YarnCluster.applicationId(log));
    assertEquals(
        Optional.empty(),
        YarnCluster.applicationId(Files.writeString(dir.resolve("none.log"), "no YARN\n")));
    assertEquals(Optional.empty(), YarnCluster.applicationId(dir.resolve("missing.log")));
  }
}
