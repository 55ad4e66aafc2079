package io.wanshuffle.cli.liquid;

import io.wanshuffle.cli.InputException;
import io.wanshuffle.scheduler.io.TextFile;
import io.wanshuffle.scheduler.liquid.Traffic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the input of {@code ./wan-shuffle liquid}: unit-size transfers, one per line as {@code
 * NAME: link link link} (the links of the transfer's path, separated by blanks); blank lines and
 * lines starting with {@code #} are ignored. Transfer names are unique; link names are any
 * non-blank tokens.
 */
final class TransfersFile {
  private TransfersFile() {}

  /**
   * @param file the transfers file
   * @param shownAs how messages name the file (as the user typed it)
   * @return the traffic, transfers in file order
   * @throws InputException for an unreadable file, a line without {@code NAME:}, a transfer without
   *     links, a name given twice, or a file without transfers
   */
  static Traffic read(Path file, String shownAs) {
    List<String> lines;
    try {
      lines = TextFile.lines(file);
    } catch (IOException e) {
      throw new InputException(shownAs + ": cannot read transfers file: " + TextFile.reason(file, e));
    }
    Map<String, List<String>> transfers = new LinkedHashMap<>();
    Map<String, Integer> lineOf = new LinkedHashMap<>();
    for (int n = 1; n <= lines.size(); n++) {
      String line = lines.get(n - 1).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = shownAs + ": line " + n + " (1-based): ";
      int colon = line.indexOf(':');
      if (colon < 0) {
        throw new InputException(where + "expected 'NAME: link link ...', no ':' in '" + line + "'");
      }
      String name = line.substring(0, colon).strip();
      if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
        throw new InputException(where + "transfer name '" + name + "' must be one non-blank word");
      }
      String rest = line.substring(colon + 1).strip();
      if (rest.isEmpty()) {
        throw new InputException(where + "transfer " + name + " names no link");
      }
      Integer before = lineOf.putIfAbsent(name, n);
      if (before != null) {
        throw new InputException(where + "transfer " + name + " is already defined on line " + before);
      }
      transfers.put(name, Arrays.asList(rest.split("\\s+")));
    }
    if (transfers.isEmpty()) {
      throw new InputException(shownAs + ": no transfers (expected lines 'NAME: link link ...')");
    }
    return Traffic.of(transfers);
  }
}
