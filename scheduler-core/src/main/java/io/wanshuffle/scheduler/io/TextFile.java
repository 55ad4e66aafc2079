package io.wanshuffle.scheduler.io;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the project's small text inputs (topology configurations, transfers files) the same way
 * everywhere: strict UTF-8, any line ending, and a leading byte-order mark (U+FEFF, written by some
 * Windows editors) dropped instead of becoming part of the first key or name; and says in words why
 * a file could not be read.
 */
public final class TextFile {
  /** The byte-order mark as decoded text. */
  public static final String BYTE_ORDER_MARK = "\uFEFF";

  private TextFile() {}

  /**
   * @param file a UTF-8 text file
   * @return its lines without line terminators; the first without a leading byte-order mark
   * @throws IOException if the file cannot be read or is not valid UTF-8 (a {@link
   *     CharacterCodingException}); {@link #reason} puts it in words
   */
  public static List<String> lines(Path file) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
    if (startsWithByteOrderMark(lines)) {
      lines.set(0, lines.get(0).substring(BYTE_ORDER_MARK.length()));
    }
    return lines;
  }

  /**
   * @param lines a file's lines as decoded, e.g. by {@link Files#readAllLines}
   * @return true when the first line starts with a byte-order mark
   */
  public static boolean startsWithByteOrderMark(List<String> lines) {
    return !lines.isEmpty() && lines.get(0).startsWith(BYTE_ORDER_MARK);
  }

  /**
   * @param file the file that could not be read
   * @param e the error reading it
   * @return why, in words: {@code no such file}, {@code permission denied}, {@code not UTF-8 text},
   *     {@code is a directory}, or else the error's own message
   */
  public static String reason(Path file, IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    }
    if (Files.isDirectory(file)) {
      return "is a directory";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
