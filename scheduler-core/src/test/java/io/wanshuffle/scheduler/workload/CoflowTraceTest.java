package io.wanshuffle.scheduler.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CoflowTraceTest {

  private static CoflowTrace parse(String text) throws IOException {
    return CoflowTrace.parse(new StringReader(text), "t.txt");
  }

  private static TraceFormatException fault(String text) {
    return assertThrows(TraceFormatException.class, () -> parse(text));
  }

  @Test
  void readsTheFacebookTrace() throws IOException {
    Path file = FacebookTrace.require();
    CoflowTrace t = CoflowTrace.parse(file);
    assertEquals(150, t.racks());
    assertEquals(526, t.coflows().size());
    // line 3 of the file: "2 10833 2 104 132 1 140:48.0"
    Coflow second = t.coflows().get(1);
    assertEquals(
        new Coflow(2, 10833, new int[] {104, 132}, new int[] {140}, new double[] {48}), second);
    // line 5: coflow 4 has 27 mappers (first 0, last 142), 116 reducers, and reducer 0 gets 648 MB
    Coflow fourth = t.coflows().get(3);
    assertEquals(4, fourth.id());
    assertEquals(27, fourth.mapperCount());
    assertEquals(0, fourth.mapperRacks()[0]);
    assertEquals(142, fourth.mapperRacks()[26]);
    assertEquals(116, fourth.reducerCount());
    assertEquals(0, fourth.reducerRacks()[0]);
    assertEquals(648.0, fourth.reducerMegabytes()[0]);
    Set<Long> ids = new HashSet<>();
    long lastArrival = -1;
    for (Coflow c : t.coflows()) {
      assertTrue(ids.add(c.id()), "duplicate id " + c.id());
      assertTrue(c.arrivalMillis() >= lastArrival, "arrivals are in order");
      lastArrival = c.arrivalMillis();
      for (int r : c.mapperRacks()) {
        assertTrue(r >= 0 && r < 150);
      }
    }
  }

  @Test
  void parsesBlankLinesAndTabs() throws IOException {
    CoflowTrace t = parse("4 2\n\n7 5\t2 0 3 2 1:2.5 2:0\n8 9 1 1 1 0:1\n\n");
    assertEquals(4, t.racks());
    assertEquals(2, t.coflows().size());
    Coflow c = t.coflows().get(0);
    assertEquals(7, c.id());
    assertArrayEquals(new int[] {0, 3}, c.mapperRacks());
    assertArrayEquals(new int[] {1, 2}, c.reducerRacks());
    assertArrayEquals(new double[] {2.5, 0}, c.reducerMegabytes());
    assertEquals(2.5, c.totalMegabytes());
  }

  @Test
  void coflowIsImmutable() throws IOException {
    Coflow c = parse("4 1\n1 0 1 2 1 3:1\n").coflows().get(0);
    c.mapperRacks()[0] = 99;
    assertEquals(2, c.mapperRacks()[0]);
  }

  @Test
  void emptyTrace() {
    assertEquals(
        "t.txt: line 1: empty trace: expected '<ports> <number of coflows>'",
        fault("").getMessage());
  }

  @Test
  void badHeader() {
    assertEquals(
        "t.txt: line 1: expected 2 fields '<ports> <number of coflows>', found 3",
        fault("150 2 x\n").getMessage());
    assertEquals(
        "t.txt: line 1: field 1 (ports): 'abc' is not an integer", fault("abc 2\n").getMessage());
    assertEquals(
        "t.txt: line 1: field 1 (ports): '0' is not at least 1", fault("0 2\n").getMessage());
  }

  @Test
  void mapperRackOutOfRangeNamesLineAndField() {
    TraceFormatException e = fault("4 2\n1 0 1 2 1 3:1\n2 0 2 1 4 1 0:1\n");
    assertEquals(3, e.line());
    assertEquals("t.txt: line 3: field 5 (mapper rack): '4' is not in 0..3", e.getMessage());
  }

  @Test
  void reducerFaults() {
    assertEquals(
        "t.txt: line 2: field 6 (reducer): '3' is not of the form rack:MB",
        fault("4 1\n1 0 1 2 1 3\n").getMessage());
    assertEquals(
        "t.txt: line 2: field 6 (reducer MB): 'x' is not a number",
        fault("4 1\n1 0 1 2 1 3:x\n").getMessage());
    assertEquals(
        "t.txt: line 2: field 6 (reducer MB): 'NaN' is not a finite number >= 0",
        fault("4 1\n1 0 1 2 1 3:NaN\n").getMessage());
    assertEquals(
        "t.txt: line 2: field 6 (reducer MB): '-1' is not a finite number >= 0",
        fault("4 1\n1 0 1 2 1 3:-1\n").getMessage());
    assertEquals(
        "t.txt: line 2: field 6 (reducer rack): '9' is not in 0..3",
        fault("4 1\n1 0 1 2 1 9:1\n").getMessage());
    assertEquals(
        "t.txt: line 2: announces 2 reducers (field 5) but has 1 'rack:MB' fields",
        fault("4 1\n1 0 1 2 2 3:1\n").getMessage());
  }

  @Test
  void countFaults() {
    assertEquals(
        "t.txt: line 2: announces 3 mappers but has only 2 fields after the count"
            + " (need the mapper racks and the reducer count)",
        fault("4 1\n1 0 3 1 2\n").getMessage());
    assertEquals(
        "t.txt: line 2: field 2 (arrival time (ms)): '-5' is not at least 0",
        fault("4 1\n1 -5 1 2 1 3:1\n").getMessage());
    assertEquals(
        "t.txt: line 2: expected at least 5 fields '<id> <arrival ms> <mappers> <rack>..."
            + " <reducers> <rack:MB>...', found 3",
        fault("4 1\n1 0 1\n").getMessage());
    assertEquals(
        "t.txt: line 1: announces 2 coflows, but the file has 1",
        fault("4 2\n1 0 1 2 1 3:1\n").getMessage());
    assertEquals(
        "t.txt: line 3: line 1 announces 1 coflows, but there are more lines",
        fault("4 1\n1 0 1 2 1 3:1\n2 0 1 2 1 3:1\n").getMessage());
  }
}
