package io.wanshuffle.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to {@code plan}: status 2, exactly one stderr line naming the file, 1-based line and
 * column or the option at fault, and nothing on stdout.
 */
class PlanCommandErrorsTest {
  @TempDir Path dir;

  private Path csv(String text) throws IOException {
    Path p = dir.resolve("m.csv");
    Files.writeString(p, text);
    return p;
  }

  /** Runs plan on the CSV text (default --k 2 --beta 1 unless given) and checks the error. */
  private String fails(String csv, String... extra) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of("plan", "--matrix", csv(csv).toString(), "--algorithm", "one-per-step"));
    List<String> given = List.of(extra);
    if (!given.contains("--k")) {
      args.addAll(List.of("--k", "2"));
    }
    if (!given.contains("--beta")) {
      args.addAll(List.of("--beta", "1"));
    }
    args.addAll(given);
    return failsWith(args.toArray(String[]::new));
  }

  private static String failsWith(String... args) {
    CliRun r = CliRun.of(args);
    assertEquals(2, r.status(), "status; stderr: " + r.err());
    assertEquals("", r.out(), "nothing on stdout");
    assertEquals(1, r.errLines().size(), "one stderr line: " + r.err());
    return r.errLines().get(0);
  }

  @Test
  void raggedRow() throws IOException {
    String e = fails("1,2,3\n# comment\n4,5\n");
    assertEquals(
        "plan: "
            + dir.resolve("m.csv")
            + ": line 3, column 3 (1-based): ragged row: 2 columns, but line 1 has 3",
        e);
  }

  @Test
  void longerRowIsRaggedToo() throws IOException {
    String e = fails("1,2\n4,5,6\n");
    assertTrue(
        e.endsWith("m.csv: line 2, column 3 (1-based): ragged row: 3 columns, but line 1 has 2"),
        e);
  }

  @Test
  void negativeCell() throws IOException {
    assertTrue(
        fails("1,2\n3,-4\n").endsWith("m.csv: line 2, column 2 (1-based): '-4' is negative"));
  }

  @Test
  void nanCell() throws IOException {
    assertTrue(
        fails("1,NaN\n3,4\n")
            .endsWith("m.csv: line 1, column 2 (1-based): 'NaN' is not a finite number"));
    assertTrue(
        fails("1,2\n3, Infinity\n")
            .endsWith("m.csv: line 2, column 2 (1-based): 'Infinity' is not a finite number"));
  }

  /**
   * Finite cells whose total is not (or is not once --rate turns bytes into seconds): bad input,
   * not a crash.
   */
  @Test
  void totalThatOverflows() throws IOException {
    String e = fails("1e308,1e308\n1,2\n");
    assertTrue(
        e.startsWith("plan: " + dir.resolve("m.csv") + ": traffic matrix total overflows"), e);
    String r = fails("1e300,1\n", "--rate", "1e-10");
    assertTrue(
        r.startsWith(
            "plan: option --rate: 1.0E-10 bytes/s turns the matrix into seconds that overflow"),
        r);
    // β so large that Σ (β + duration) is infinite: bad input, not "cost": "Infinity" in the JSON
    String b = fails("5,1\n2,3\n", "--beta", "1.7e308", "--format", "json");
    assertTrue(b.startsWith("plan: option --beta: 1.7E308 s: the schedule's cost"), b);
  }

  @Test
  void nonNumericCell() throws IOException {
    assertTrue(
        fails("1,2\nabc,4\n").endsWith("m.csv: line 2, column 1 (1-based): 'abc' is not a number"));
    // Java would accept "1d" and "0x10" as doubles; a CSV cell must be a plain decimal number
    assertTrue(fails("1d,2\n").endsWith("line 1, column 1 (1-based): '1d' is not a number"));
    assertTrue(fails("1,2,,4\n").endsWith("line 1, column 3 (1-based): empty cell"));
  }

  @Test
  void emptyMatrix() throws IOException {
    assertTrue(
        fails("# only a comment\n\n")
            .endsWith("m.csv: empty matrix: no data rows (only comments or blank lines)"));
    assertTrue(
        fails("").endsWith("m.csv: empty matrix: no data rows (only comments or blank lines)"));
  }

  @Test
  void aPositiveCellThatWouldBecomeZeroIsRefused() throws IOException {
    for (String tiny : List.of("1e-400", "1e-9999999999")) {
      assertTrue(
          fails("1," + tiny + "\n")
              .endsWith(
                  "m.csv: line 1, column 2 (1-based): '"
                      + tiny
                      + "' is too small"
                      + " (below the smallest double, it would become 0: no transfer)"),
          fails("1," + tiny + "\n"));
    }
    assertTrue(
        fails("1,-1e-400\n").endsWith("m.csv: line 1, column 2 (1-based): '-1e-400' is negative"));
    // a zero with an exponent beyond an int is still zero
    CliRun zero =
        CliRun.of(
            "plan",
            "--matrix",
            csv("0e9999999999,2\n3,4\n").toString(),
            "--k",
            "2",
            "--beta",
            "1",
            "--format",
            "json");
    assertEquals(0, zero.status(), zero.err());
    assertTrue(zero.out().contains("\"cost\":"), zero.out());
    // an option below the smallest double is refused the same way, not read as 0
    assertEquals(
        "plan: Invalid value for option '--beta': '1e-400' is too small (below the smallest double,"
            + " it would become 0)",
        fails("1\n", "--beta", "1e-400"));
  }

  @Test
  void headerFaults() throws IOException {
    assertTrue(
        fails("#senders: a,b\n#receivers: x\n1,2\n3,4\n")
            .endsWith(
                "m.csv: line 2 (1-based): #receivers: names 1 hosts, but the matrix has 2 columns"));
    assertTrue(
        fails("#senders: a\n#receivers: x,y\n1,2\n3,4\n")
            .endsWith(
                "m.csv: line 1 (1-based): #senders: names 1 hosts, but the matrix has 2 rows"));
    assertTrue(
        fails("#senders: a,b\n1,2\n3,4\n")
            .endsWith(
                "m.csv: line 2 (1-based): line 1 is a"
                    + " #senders: header, so this line must be '#receivers: h1,h2,...'"));
    assertTrue(
        fails("#senders: a,a\n#receivers: x,y\n1,2\n3,4\n")
            .endsWith("m.csv: line 1, column 2 (1-based): #senders: host 'a' appears twice"));
    // a header that would be read as a comment: after another comment, misspelt, out of order
    for (String text :
        new String[] {
          "# matrix of job 7\n#senders: a,b\n#receivers: x\n1\n2\n",
          "#Senders: a,b\n#receivers: x\n1\n2\n",
          "#receivers: x\n#senders: a,b\n1\n2\n"
        }) {
      String e = fails(text);
      assertTrue(
          e.contains("host names go on line 1 ('#senders: h1,h2,...') and line 2")
              && e.contains("would be read as a comment"),
          text + " -> " + e);
    }
  }

  @Test
  void kBelowOne() throws IOException {
    assertEquals("plan: option --k: must be an integer >= 1, got 0", fails("1\n", "--k", "0"));
    assertEquals("plan: option --k: must be an integer >= 1, got -3", fails("1\n", "--k", "-3"));
  }

  @Test
  void kNotAnInteger() throws IOException {
    for (String bad : List.of("two", "2.5", "\u0663", "99999999999")) {
      String e = fails("1\n", "--k", bad);
      assertTrue(
          e.startsWith("plan: Invalid value for option '--k': '" + bad + "' is not an int"), e);
    }
    CliRun blanks =
        CliRun.of("plan", "--matrix", csv("1\n").toString(), "--k", " 3 ", "--beta", " 1 ");
    assertEquals(
        0, blanks.status(), "blanks around a number are ignored, as for --beta: " + blanks.err());
    assertEquals(
        "plan: option --delta-senders: value 1 (1-based) '\u0663' is not an integer",
        fails("1\n", "--delta-senders", "\u0663"));
  }

  @Test
  void betaNegativeOrNotFinite() throws IOException {
    assertEquals(
        "plan: option --beta: must be a finite number of seconds >= 0, got -1.0",
        fails("1\n", "--beta", "-1"));
    assertEquals(
        "plan: option --beta: must be a finite number of seconds >= 0, got Infinity",
        fails("1\n", "--beta", "1e400"));
  }

  /**
   * --beta and --rate read numbers as matrix cells do: Java's hex, suffixes and NaN are refused.
   */
  @Test
  void optionNumbersHaveTheMatrixSyntax() throws IOException {
    for (String bad : List.of("NaN", "0x1p3", "1d", "2f", "Infinity", "\u0662", "1,5", "")) {
      String e = fails("1\n", "--beta", bad);
      assertTrue(
          e.startsWith(
              "plan: Invalid value for option '--beta': '"
                  + bad
                  + "' is not a decimal"
                  + " number"),
          bad + " -> " + e);
    }
    String e = fails("1\n", "--rate", "1e3d");
    assertTrue(
        e.startsWith("plan: Invalid value for option '--rate': '1e3d' is not a decimal number"), e);
    CliRun ok =
        CliRun.of(
            "plan",
            "--matrix",
            dir.resolve("m.csv").toString(),
            "--k",
            "1",
            "--beta",
            "+.5e1",
            "--rate",
            "2E0",
            "--format",
            "json");
    assertEquals(0, ok.status(), ok.err());
    assertTrue(ok.out().contains("\"beta\":5.0"), ok.out());
  }

  @Test
  void rateNotPositive() throws IOException {
    assertEquals(
        "plan: option --rate: must be a finite number of bytes/s > 0, got 0.0",
        fails("1\n", "--rate", "0"));
  }

  @Test
  void deltaListOfTheWrongLength() throws IOException {
    assertEquals(
        "plan: option --delta-senders: has 3 values but the matrix has 2 senders (rows)",
        fails("1,2\n3,4\n", "--delta-senders", "1,2,3"));
    assertEquals(
        "plan: option --delta-receivers: has 1 values but the matrix has 2 receivers"
            + " (columns)",
        fails("1,2\n3,4\n", "--delta-receivers", "2"));
  }

  @Test
  void deltaValuesNotPositiveIntegers() throws IOException {
    assertEquals(
        "plan: option --delta-senders: value 2 (1-based) must be >= 1, got 0",
        fails("1,2\n3,4\n", "--delta-senders", "1,0"));
    assertEquals(
        "plan: option --delta-receivers: value 1 (1-based) 'x' is not an integer",
        fails("1,2\n3,4\n", "--delta-receivers", "x,1"));
  }

  @Test
  void unknownAlgorithm() throws IOException {
    Path p = csv("1\n");
    String e =
        failsWith(
            "plan",
            "--matrix",
            p.toString(),
            "--k",
            "1",
            "--beta",
            "0",
            "--algorithm",
            "no-such-algorithm");
    assertTrue(e.startsWith("plan: option --algorithm: unknown algorithm 'no-such-algorithm'"), e);
  }

  @Test
  void anEmptyPathIsNamedAsSuch() {
    assertEquals(
        "plan: option --matrix: is empty: give a file",
        failsWith("plan", "--matrix", "", "--k", "1", "--beta", "0"));
    assertEquals(
        "plan: option --topology: is empty: give a file",
        failsWith("plan", "--matrix", "m.csv", "--topology", "", "--beta", "0"));
  }

  @Test
  void missingFile() {
    Path p = dir.resolve("absent.csv");
    assertEquals(
        "plan: " + p + ": no such file",
        failsWith(
            "plan",
            "--matrix",
            p.toString(),
            "--k",
            "1",
            "--beta",
            "0",
            "--algorithm",
            "one-per-step"));
    assertEquals(
        "plan: " + dir + ": cannot read: is a directory",
        failsWith("plan", "--matrix", dir.toString(), "--k", "1", "--beta", "0"));
  }

  @Test
  void matrixThatIsNotUtf8IsSaidInWords() throws IOException {
    Path p = dir.resolve("latin1.csv");
    Files.write(p, new byte[] {'1', ',', (byte) 0xb5, '2', '\n'});
    assertEquals(
        "plan: " + p + ": cannot read: not UTF-8 text",
        failsWith("plan", "--matrix", p.toString(), "--k", "1", "--beta", "0"));
  }

  @Test
  void missingRequiredOptionAndBadFormat() throws IOException {
    Path p = csv("1\n");
    assertEquals(
        "plan: Missing required option: '--k=K'",
        failsWith("plan", "--matrix", p.toString(), "--beta", "0"));
    String e =
        failsWith("plan", "--matrix", p.toString(), "--k", "1", "--beta", "0", "--format", "xml");
    assertTrue(e.contains("--format") && e.contains("xml"), e);
  }

  @Test
  void invalidScheduleIsAnInternalError() throws IOException {
    Path p = csv("1,2\n3,4\n");
    CliRun r =
        CliRun.of(
            "plan", "--matrix", p.toString(), "--k", "2", "--beta", "1", "--algorithm", "broken");
    assertEquals(1, r.status(), r.err());
    assertEquals("", r.out());
    assertEquals(1, r.errLines().size());
    assertTrue(
        r.err()
            .startsWith(
                "plan: internal error: java.lang.IllegalStateException: algorithm"
                    + " broken returned an invalid schedule: "),
        r.err());
  }
}
