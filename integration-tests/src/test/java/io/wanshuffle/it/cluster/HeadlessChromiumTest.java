package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The browser check of {@link OperatorViewsIT} sees a script error, and none on a clean page. */
class HeadlessChromiumTest {
  @TempDir Path dir;

  @Test
  void reportsAScriptErrorAndNothingOnACleanPage() throws Exception {
    Assumptions.assumeTrue(
        HeadlessChromium.installed(),
        "no " + HeadlessChromium.BINARY + " (apt-get install chromium)");
    Path bad =
        Files.writeString(
            dir.resolve("bad.html"),
            "<html><body><p>x</p><script>noSuchFunction();</script></body></html>");
    Path good =
        Files.writeString(
            dir.resolve("good.html"),
            "<html><body><p>x</p><script>document.title = 'ok';</script></body></html>");
    try (HeadlessChromium c = HeadlessChromium.start()) {
      HeadlessChromium.Page p = c.load(bad.toUri().toString());
      assertEquals(1, p.errors().size(), p.errors().toString());
      assertTrue(p.errors().get(0).contains("noSuchFunction is not defined"), p.errors().get(0));
      HeadlessChromium.Page q = c.load(good.toUri().toString());
      assertEquals(List.of(), q.errors());
      assertTrue(q.png().length > 1000, "a screenshot");
    }
  }
}
