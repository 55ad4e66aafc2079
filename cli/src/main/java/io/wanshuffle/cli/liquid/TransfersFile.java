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
 * NAME: link link link} (the links of the transfer's path, separated by blanks); {@code #} starts a
 * comment anywhere on a line (as in the topology files), blank lines are ignored. Transfer names
 * are unique; link names are non-blank tokens without {@code :} or {@code ,} (a comma or a second
 * colon is a typo for a blank, not part of a name).
 */
final class TransfersFile {
  private TransfersFile() {}

  /**
   * @param file the transfers file
   * @param shownAs how messages name the file (as the user typed it)
   * @return the traffic, transfers in file order
   * @throws InputException for an unreadable file, a line without {@code NAME:}, a transfer without
   *     links, a link name with {@code :} or {@code ,}, a name given twice, or a file without
   *     transfers
   */
  static Traffic read(Path file, String shownAs) {
    List<String> lines;
    try {
      lines = TextFile.lines(file);
    } catch (IOException e) {
      throw new InputException(
          shownAs + ": cannot read transfers file: " + TextFile.reason(file, e));
    }
    Map<String, List<String>> transfers = new LinkedHashMap<>();
    Map<String, Integer> lineOf = new LinkedHashMap<>();
    for (int n = 1; n <= lines.size(); n++) {
      String line = lines.get(n - 1);
      int hash = line.indexOf('#');
      line = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = shownAs + ": line " + n + " (1-based): ";
      int colon = line.indexOf(':');
      if (colon < 0) {
        throw new InputException(
            where + "expected 'NAME: link link ...', no ':' in '" + line + "'");
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
        throw new InputException(
            where + "transfer " + name + " is already defined on line " + before);
      }
      List<String> links = Arrays.asList(rest.split("\\s+"));
      for (String l : links) {
        if (l.indexOf(':') >= 0 || l.indexOf(',') >= 0) {
          throw new InputException(
              where
                  + "link name '"
                  + l
                  + "' of transfer "
                  + name
                  + " contains '"
                  + (l.indexOf(':') >= 0 ? ':' : ',')
                  + "': links are separated by blanks");
        }
      }
      transfers.put(name, links);
    }
    if (transfers.isEmpty()) {
      throw new InputException(shownAs + ": no transfers (expected lines 'NAME: link link ...')");
    }
    return Traffic.of(transfers);
  }
}
