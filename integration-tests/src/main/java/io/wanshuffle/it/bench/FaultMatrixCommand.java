package io.wanshuffle.it.bench;

import io.wanshuffle.it.fault.FaultRun;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code wan-shuffle fault-matrix}: the end-to-end benchmark ({@link E2eBenchCommand}) once without
 * a fault and once per fault, on the same options, and one table of them ({@link
 * FaultMatrixReport}, {@code docs/benchmarks/faults.md}). Each row's e2e-bench writes its own
 * folder and report under {@code --out}; the table is written after every row.
 */
@Command(
    name = "fault-matrix",
    mixinStandardHelpOptions = true,
    header = "Benchmark default shuffle vs wan-shuffle under network faults.",
    description = {
      "Runs e2e-bench without a fault, then once per --fault (each measured run of each cell gets"
          + " the fault), and writes one table: per fault, pattern and variant the reduce stage"
          + " against the first variant and against the fault-free run, how long the fault held,"
          + " the most flows on a link against its capacity, whether every run answered as the"
          + " fault-free runs did, and the hung runs (over 10 x their fault-free time plus the"
          + " fault's planned end).",
      "e2e-bench options go after --, e.g. fault-matrix --fault kill:a1:1s -- --patterns uniform"
          + " --runs 3; without them: "
          + "--patterns uniform,trace,tpch --variants default,auto --rtts 0 --runs 1 --mb 60 --warmup"
          + " small.",
      "Exit status 1 when a run answered wrong, a fault was not applied or undone, or a run hung."
    })
public final class FaultMatrixCommand implements Callable<Integer> {
  /** The faults without {@code --fault}: the matrix of docs/benchmarks/faults.md. */
  static final List<String> DEFAULT_FAULTS =
      List.of(
          "down:backbone.out[/A]:2s:30s",
          "loss:backbone.out[/A]:500ms:20s:5%",
          "rate:backbone.out[/A]:500ms:rest:50mbit",
          "partition:b1:500ms:60s",
          "down:nic.down[b1]:500ms:20s",
          "down:backbone.in[/B]:500ms:10s",
          "loss:nic.up[a1]:500ms:20s:20%",
          "kill:a1:1s");

  /** The e2e-bench options without any after {@code --}. */
  static final List<String> DEFAULT_BENCH =
      List.of(
          "--patterns",
          "uniform,trace,tpch",
          "--variants",
          "default,auto",
          "--rtts",
          "0",
          "--runs",
          "1",
          "--mb",
          "60",
          "--warmup",
          "small");

  @Option(
      names = "--fault",
      paramLabel = "SPEC",
      description =
          "a row of the matrix: one fault, as e2e-bench's --fault (repeatable; default the eight"
              + " of docs/benchmarks/faults.md: a 30 s backbone outage, 5 %% loss on the backbone"
              + " for 20 s, a 4x rate drop on it for the rest of the stage, a 60 s partition of b1"
              + " from the driver, b1's NIC down 20 s, a 10 s outage of B's backbone side, 20 %%"
              + " loss on a1's NIC, a kill of a1's executor)")
  List<String> faults;

  @Option(
      names = "--no-fault-free",
      description =
          "leave out the fault-free row (the columns against it then read -, and answers are"
              + " checked within each row only)")
  boolean noFaultFree;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "run/fault-matrix",
      description = "folder of the rows' e2e-bench runs (default ${DEFAULT-VALUE})")
  Path out;

  @Option(
      names = "--report",
      paramLabel = "FILE.md",
      description = "the table (default: faults.md in --out)")
  Path report;

  @Parameters(
      paramLabel = "E2E_BENCH_OPTION",
      description = "e2e-bench options for every row, after -- (not --fault, --out, --report)")
  List<String> bench;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    List<String> options = bench == null || bench.isEmpty() ? DEFAULT_BENCH : bench;
    for (String o : options) {
      if (o.equals("--fault")
          || o.startsWith("--fault=")
          || o.startsWith("--out")
          || o.startsWith("--report")) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), o + " is set by fault-matrix per row; give the faults as --fault");
      }
    }
    List<String> rowFaults = new ArrayList<>();
    if (!noFaultFree) {
      rowFaults.add(null);
    }
    rowFaults.addAll(faults == null || faults.isEmpty() ? DEFAULT_FAULTS : faults);
    ReportFile table = new ReportFile(report != null ? report : out.resolve("faults.md"));
    long started = System.currentTimeMillis();
    List<FaultMatrixReport.Row> rows = new ArrayList<>();
    int status = 0;
    for (int i = 0; i < rowFaults.size(); i++) {
      String fault = rowFaults.get(i);
      Path dir = out.resolve(String.format("row-%02d", i));
      List<String> args = new ArrayList<>(options);
      args.addAll(
          List.of("--out", dir.toString(), "--report", dir.resolve("end-to-end.md").toString()));
      if (fault != null) {
        args.addAll(List.of("--fault", fault));
      }
      System.out.println(
          "fault-matrix: row "
              + (i + 1)
              + " of "
              + rowFaults.size()
              + ": "
              + (fault == null ? "fault-free" : fault));
      E2eBenchCommand e2e = new E2eBenchCommand();
      int rc = new CommandLine(e2e).execute(args.toArray(String[]::new));
      FaultMatrixReport.Row row = row(fault, rc, e2e.outcome());
      rows.add(row);
      status |= rc != 0 ? 1 : 0;
      table.write(
          FaultMatrixReport.markdown(rows, generated(options, started, i + 1 < rowFaults.size())));
    }
    System.out.println("wrote " + table.file());
    return status != 0 || FaultMatrixReport.hungRuns(rows) > 0 ? 1 : 0;
  }

  private static FaultMatrixReport.Row row(String fault, int rc, E2eOutcome o) {
    Map<String, List<String>> answers = new LinkedHashMap<>();
    Map<String, List<FaultRun>> faults = new LinkedHashMap<>();
    for (E2eReport.Cell c : o.cells().cells()) {
      List<String> a = o.cells().firstAnswer(c.pattern(), c.rtt());
      if (a != null) {
        answers.putIfAbsent(c.pattern() + "@" + c.rtt(), a);
      }
      faults.put(FaultMatrixReport.key(c), o.runs().faultsOf(c.pattern(), c.variant()));
    }
    return new FaultMatrixReport.Row(
        fault, rc, o.cells().cells(), answers, o.cells().wrongAnswers(), faults);
  }

  private String generated(List<String> options, long started, boolean partial) {
    return "Generated by `./wan-shuffle fault-matrix"
        + (faults == null
            ? ""
            : faults.stream().map(f -> " --fault '" + f + "'").reduce("", String::concat))
        + (noFaultFree ? " --no-fault-free" : "")
        + " -- "
        + String.join(" ", options.stream().map(o -> o.contains(" ") ? "'" + o + "'" : o).toList())
        + "` on "
        + Instant.now()
        + String.format(" (took %.0f s)", (System.currentTimeMillis() - started) / 1000.0)
        + (partial ? " (PARTIAL: rows still to run)" : "")
        + "; each row's own e2e-bench report is in its folder under `"
        + out
        + "`.";
  }
}
