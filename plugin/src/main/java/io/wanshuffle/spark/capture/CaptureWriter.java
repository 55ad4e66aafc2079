package io.wanshuffle.spark.capture;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one application's capture files ({@link CaptureFiles}: the flow log, the link log, per
 * stage the Kryo capture, the matrix CSV and the link CSVs) on a single background thread, so that
 * the coordinator's callbacks never wait for a disk. Writes run in the order they were handed over.
 * A failing write is logged once (WARN) and the others are still tried; nothing is thrown to the
 * caller.
 */
final class CaptureWriter {
  private static final Logger LOG = LoggerFactory.getLogger(CaptureWriter.class);

  /** Longest wait for the files at {@link #close()}, seconds. */
  static final long CLOSE_WAIT_SECONDS = 30;

  private final Path appDir;
  private final ExecutorService writer;

  /** The flow log; opened, written and closed on the writer thread only. */
  private Writer flowLog;

  /** The link log; opened, written and closed on the writer thread only. */
  private Writer linkLog;

  private volatile boolean errorLogged;

  private interface IoTask {
    void run() throws IOException;
  }

  /**
   * Starts the writer thread and creates the application's folder, flow log and link log (on that
   * thread).
   *
   * @param appDir the application's capture folder ({@link CaptureFiles#appDir})
   */
  CaptureWriter(Path appDir) {
    this.appDir = appDir;
    this.writer =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "wan-shuffle-capture-writer");
              t.setDaemon(true);
              return t;
            });
    io(
        () -> {
          Files.createDirectories(appDir);
          flowLog = newLog(CaptureFiles.FLOW_LOG, CaptureFiles.FLOW_LOG_HEADER);
          linkLog = newLog(CaptureFiles.LINK_LOG, CaptureFiles.LINK_LOG_HEADER);
          linkLog.flush();
        });
  }

  /**
   * @return a new (or emptied) log in the application's folder with its header line written
   */
  private Writer newLog(String name, String header) throws IOException {
    Writer w =
        Files.newBufferedWriter(
            appDir.resolve(name),
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
    w.write(header + "\n");
    return w;
  }

  /**
   * @param change a link's window or share that moved, appended to the link log and flushed (rare:
   *     at most about once a second per link)
   */
  void appendLinkChange(LinkChange change) {
    io(
        () -> {
          CaptureFiles.appendLinkChange(linkLog, change);
          linkLog.flush();
        });
  }

  /**
   * @param flows realised flows to append to the flow log
   */
  void appendFlows(List<FlowCapture> flows) {
    io(
        () -> {
          for (FlowCapture f : flows) {
            CaptureFiles.appendFlow(flowLog, f);
          }
        });
  }

  /**
   * Writes a stage's files: its Kryo capture, its transfer matrix as CSV when it has bytes (headed
   * by how to plan it with {@code ./wan-shuffle plan}), its link CSVs when it has link loads; then
   * flushes the flow log.
   *
   * @param cap the stage's capture
   * @param loads its link loads, or null
   * @param baseSpeed the base speed for the CSV's plan hint, bytes/s
   * @param k the flow limit for the CSV's plan hint
   */
  void writeStage(StageCapture cap, LinkLoads loads, long baseSpeed, int k) {
    Path file = stageFile(cap);
    io(
        () -> {
          CaptureFiles.writeStage(file, cap);
          HostMatrix m = cap.transferMatrix();
          if (m.total() > 0) {
            Path csv = CaptureFiles.matrixFile(appDir, cap.stageId(), cap.stageAttempt());
            try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
              m.writeCsv(
                  w,
                  List.of(
                      "wan-shuffle transfer matrix, bytes, stage "
                          + cap.stageId()
                          + "."
                          + cap.stageAttempt()
                          + " of "
                          + cap.appId(),
                      "plan it: ./wan-shuffle plan --matrix <this file> --rate "
                          + baseSpeed
                          + " --k "
                          + k
                          + " --beta <beta seconds>"));
            }
          }
          if (loads != null) {
            writeLinkLoads(cap, loads);
          }
          flowLog.flush();
        });
  }

  /**
   * @param cap a stage's capture
   * @return the path of its Kryo capture file
   */
  Path stageFile(StageCapture cap) {
    return CaptureFiles.stageFile(appDir, cap.stageId(), cap.stageAttempt());
  }

  /** Writes the stage's {@code links.csv} and {@code step-links.csv} ({@link LinkLoads}). */
  private void writeLinkLoads(StageCapture cap, LinkLoads loads) throws IOException {
    String base = "stage-" + cap.stageId() + "." + cap.stageAttempt();
    try (Writer w =
        Files.newBufferedWriter(appDir.resolve(base + ".links.csv"), StandardCharsets.UTF_8)) {
      loads.writeLinks(w);
    }
    try (Writer w =
        Files.newBufferedWriter(appDir.resolve(base + ".step-links.csv"), StandardCharsets.UTF_8)) {
      loads.writeStepLinks(w);
    }
  }

  /**
   * Closes the flow log and the link log after the writes handed over so far and waits for them, at
   * most {@value #CLOSE_WAIT_SECONDS} s (a WARN names the folder when that is not enough). Later
   * writes are dropped.
   */
  void close() {
    io(
        () -> {
          if (flowLog != null) {
            flowLog.close();
          }
          if (linkLog != null) {
            linkLog.close();
          }
        });
    writer.shutdown();
    try {
      if (!writer.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn(
            "wan-shuffle capture: files in {} not completely written after {} s",
            appDir,
            CLOSE_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void io(IoTask t) {
    try {
      writer.execute(
          () -> {
            try {
              t.run();
            } catch (IOException | RuntimeException e) {
              if (!errorLogged) {
                errorLogged = true;
                LOG.warn(
                    "wan-shuffle capture: cannot write to {} (further errors not logged): {}",
                    appDir,
                    e.toString());
              }
            }
          });
    } catch (RejectedExecutionException e) {
      LOG.debug("capture writer stopped", e);
    }
  }
}
