package io.wanshuffle.scheduler.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextFileTest {
  @TempDir Path dir;

  @Test
  void aLeadingByteOrderMarkIsDroppedAndOnlyThere() throws IOException {
    Path p = dir.resolve("t.txt");
    Files.writeString(p, "\uFEFFa: x\r\n\uFEFFb\n");
    assertEquals(List.of("a: x", "\uFEFFb"), TextFile.lines(p));
    Files.writeString(p, "\uFEFF");
    assertEquals(List.of(""), TextFile.lines(p));
    Files.writeString(p, "");
    assertEquals(List.of(), TextFile.lines(p));
  }

  @Test
  void whyAFileCannotBeReadIsSaidInWords() throws IOException {
    Path missing = dir.resolve("missing");
    assertEquals("no such file", reasonReading(missing));
    assertEquals("is a directory", reasonReading(dir));
    Path latin1 = dir.resolve("latin1.txt");
    Files.write(latin1, "h\u00f4te".getBytes(StandardCharsets.ISO_8859_1));
    assertEquals("not UTF-8 text", reasonReading(latin1));
  }

  private static String reasonReading(Path p) {
    IOException e = assertThrows(IOException.class, () -> TextFile.lines(p));
    return TextFile.reason(p, e);
  }
}
