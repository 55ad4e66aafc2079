package io.wanshuffle.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A benchmark's Markdown report, written again after every measured cell: each write puts the new
 * generated part over what the file held before the benchmark started ({@link ReportMerge}: its
 * hand-written notes kept, its table moved under the earlier tables).
 */
final class ReportFile {
  private final Path file;

  /** The file's content before the first write ("" when there was none), read on that write. */
  private String previous;

  /**
   * @param file the report (its folder is created on the first write)
   */
  ReportFile(Path file) {
    this.file = file;
  }

  /**
   * @return the report file
   */
  Path file() {
    return file;
  }

  /**
   * @param generated the new generated part
   * @throws UncheckedIOException if the file cannot be read or written
   */
  void write(String generated) {
    try {
      if (previous == null) {
        previous = Files.exists(file) ? Files.readString(file) : "";
      }
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(file, ReportMerge.merge(previous, generated));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
