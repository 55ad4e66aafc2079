package io.wanshuffle.tools.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code wan-shuffle report}: one self-contained HTML page per application from its capture folder
 * or its Spark event log ({@link ApplicationCaptures}, {@link EventLogs}, {@link OperatorReport}).
 * With one application the page is {@code --out}; with several, {@code --out}'s name with {@code
 * -<app id>} before {@code .html}, one per application.
 *
 * <p>Exit status 0 when the pages are written, with a {@code note:} line on stdout per file left
 * out or only partly read; 2 with one line {@code report: --event-log|--capture PATH: WHY} when the
 * input is missing, unreadable, not an event log or capture, or a folder holding none.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    header = "HTML page of an application's gated stages.",
    sortOptions = false,
    description = {
      "Reads the plugin's capture folder (spark.wanshuffle.capture.dir, or one application's folder"
          + " in it) or Spark event logs (a file, a rolling event log folder, or spark.eventLog.dir;"
          + " plain or compressed with any of Spark's codecs, finished or in progress) and writes one self-contained HTML page per application: per gated stage the"
          + " transfer matrix as a heat map grouped by site and rack, the planned and realised"
          + " steps side by side, the throughput on every backbone side and the bottleneck link, the"
          + " lower bound, predicted against measured transfer time, and bytes and flows per link.",
      "A file of an older version or cut short gets a note naming it; the rest still renders."
    })
public final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Exactly one input. */
  static final class Input {
    @Option(
        names = "--event-log",
        paramLabel = "FILE|DIR",
        required = true,
        description = "a Spark event log, a rolling event log folder, or a folder of event logs")
    Path eventLog;

    @Option(
        names = "--capture",
        paramLabel = "DIR",
        required = true,
        description =
            "the capture folder (spark.wanshuffle.capture.dir) or one application's in it")
    Path capture;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  @Option(
      names = "--out",
      paramLabel = "FILE.html",
      defaultValue = "run/report/wan-shuffle-report.html",
      description = "the page to write (default ${DEFAULT-VALUE})")
  Path out;

  /** The pages written by the last {@link #call()} (read by tests). */
  final List<Path> written = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    QuietSparkLogs.apply();
    List<ApplicationCapture> apps;
    List<String> leftOut = List.of();
    try {
      if (input.eventLog != null) {
        EventLogs.Found found = EventLogs.read(input.eventLog);
        apps = found.applications();
        leftOut = found.leftOut();
      } else {
        apps = ApplicationCaptures.fromCaptureDir(input.capture);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          (input.eventLog != null ? "--event-log " : "--capture ") + e.getMessage());
    }
    written.clear();
    for (String n : leftOut) {
      spec.commandLine().getOut().println("note: " + n);
    }
    for (ApplicationCapture app : apps) {
      Path file = apps.size() == 1 ? out : perApp(out, app.appId());
      OperatorReport.render(app).write(file);
      written.add(file);
      for (String n : app.notes()) {
        spec.commandLine().getOut().println("note: " + n);
      }
      spec.commandLine()
          .getOut()
          .println(
              "report: "
                  + file
                  + " ("
                  + (app.appId().isEmpty() ? "application" : app.appId())
                  + ", "
                  + app.stages().size()
                  + " gated stages)");
    }
    spec.commandLine().getOut().flush();
    return 0;
  }

  /**
   * @return {@code out} with {@code -<app id>} before its extension
   */
  static Path perApp(Path out, String appId) {
    String name = out.getFileName().toString();
    String safe = appId.isEmpty() ? "app" : appId.replaceAll("[^A-Za-z0-9_.-]", "_");
    int dot = name.lastIndexOf('.');
    String file =
        dot > 0 ? name.substring(0, dot) + "-" + safe + name.substring(dot) : name + "-" + safe;
    return out.resolveSibling(file);
  }
}
