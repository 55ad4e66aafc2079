package io.wanshuffle.scheduler.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FacebookTraceTest {
  @TempDir Path dir;

  /** Runs {@code body} with the two system properties set as given (null: cleared). */
  private static <T> T withProperties(String trace, String home, Supplier<T> body) {
    String oldTrace = System.getProperty(FacebookTrace.PROPERTY);
    String oldHome = System.getProperty(FacebookTrace.HOME_PROPERTY);
    set(FacebookTrace.PROPERTY, trace);
    set(FacebookTrace.HOME_PROPERTY, home);
    try {
      return body.get();
    } finally {
      set(FacebookTrace.PROPERTY, oldTrace);
      set(FacebookTrace.HOME_PROPERTY, oldHome);
    }
  }

  private static void set(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  /** The repository ships the trace: the module's tests find it with no property set. */
  @Test
  void theRepositoryShipsTheTrace() throws IOException {
    Path found =
        withProperties(null, null, FacebookTrace::locate)
            .orElseThrow(() -> new AssertionError("the trace is not in " + FacebookTrace.FOLDER));
    assertTrue(found.endsWith(Path.of("data", "coflow-benchmark", FacebookTrace.FILE)), "" + found);
    assertEquals("150 526", Files.readAllLines(found).get(0));
    Path readme = found.resolveSibling("README.md");
    String text = Files.readString(readme);
    assertTrue(text.contains("https://github.com/coflow/coflow-benchmark"), "names its source");
    assertTrue(text.contains("Efficient Coflow Scheduling"), "names the papers to cite");
  }

  @Test
  void theHomePropertyIsLookedAtBeforeTheWorkingFolder() throws IOException {
    Path trace = FacebookTrace.inRepository(dir);
    Files.createDirectories(trace.getParent());
    Files.writeString(trace, "2 0\n");
    assertEquals(Optional.of(trace), withProperties(null, dir.toString(), FacebookTrace::locate));
  }

  @Test
  void theTracePropertyIsTheOnlyPlaceLookedAtWhenSet() {
    Path missing = dir.resolve("elsewhere.txt");
    assertEquals(Optional.empty(), withProperties(missing.toString(), null, FacebookTrace::locate));
    NoSuchFileException e =
        withProperties(
            missing.toString(),
            null,
            () -> assertThrows(NoSuchFileException.class, FacebookTrace::require));
    assertTrue(e.getMessage().startsWith(FacebookTrace.FILE + " not found; looked at " + missing));
    assertTrue(e.getMessage().contains("-Dwanshuffle.coflowTrace=FILE"), e.getMessage());
  }
}
