package io.wanshuffle.it.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.net.BackboneMeter;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.LinkMeter;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.TcpStateSampler;
import io.wanshuffle.it.net.TcpTrace;
import io.wanshuffle.it.net.Testbed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What an experiment records from outside Spark around one driver run: the backbone's counters
 * ({@link BackboneMeter}, every 200 ms; shaped testbed only), every link's counters ({@link
 * LinkMeter}, every 200 ms; shaped testbed only) and, when asked, the cross-cluster TCP
 * connections' state ({@link TcpStateSampler}, every 100 ms). Started by the constructor; {@link
 * #finish} keeps the data, {@link #abandon} drops what is still running (a failed run).
 */
final class RunRecorder {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BackboneMeter.Recording backboneRec;
  private LinkMeter.Recording linkRec;
  private TcpStateSampler.Recording tcpRec;
  private BackboneTrace backbone;
  private LinkTrace links;
  private TcpTrace tcp;

  /**
   * Starts recording.
   *
   * @param testbed the testbed the run uses
   * @param sampleTcp whether to sample the TCP connections (the testbed must be shaped)
   */
  RunRecorder(Testbed testbed, boolean sampleTcp) {
    backboneRec = testbed.backbone().map(m -> m.record(200)).orElse(null);
    try {
      linkRec = testbed.links().map(m -> m.record(200)).orElse(null);
      tcpRec = sampleTcp ? TcpStateSampler.record(testbed, 100) : null;
    } catch (RuntimeException e) {
      abandon();
      throw e;
    }
  }

  /**
   * Stops the recordings and keeps their data in {@code <runDir>/<tag>.backbone.json} (the counters
   * at both ends of the run and the byte samples), {@code <runDir>/<tag>.links.json} (per link its
   * rate, byte samples and tbf drops) and {@code <runDir>/<tag>.tcp.csv}.
   *
   * @param runDir the experiment's folder
   * @param tag the run's tag
   * @throws IOException if a file cannot be written
   */
  void finish(Path runDir, String tag) throws IOException {
    if (backboneRec != null) {
      backbone = backboneRec.stop();
      backboneRec = null;
      JSON.writeValue(
          runDir.resolve(tag + ".backbone.json").toFile(),
          Map.of(
              "start",
              backbone.start(),
              "end",
              backbone.end(),
              "rateBitsPerSecond",
              backbone.rateBitsPerSecond(),
              "samples",
              backbone.samples()));
    }
    if (linkRec != null) {
      links = linkRec.stop();
      linkRec = null;
      JSON.writeValue(runDir.resolve(tag + ".links.json").toFile(), links.series());
    }
    if (tcpRec != null) {
      tcp = tcpRec.stop();
      tcpRec = null;
      tcp.writeCsv(runDir.resolve(tag + ".tcp.csv"));
    }
  }

  /** Stops whatever {@link #finish} did not (a failed run). */
  void abandon() {
    if (backboneRec != null) {
      backboneRec.stop();
      backboneRec = null;
    }
    if (linkRec != null) {
      linkRec.stop();
      linkRec = null;
    }
    if (tcpRec != null) {
      tcpRec.stop();
      tcpRec = null;
    }
  }

  /**
   * @return every link's recording after {@link #finish}, or null on the loopback testbed
   */
  LinkTrace links() {
    return links;
  }

  /**
   * @return the backbone recording after {@link #finish}, or null on the loopback testbed
   */
  BackboneTrace backbone() {
    return backbone;
  }

  /**
   * @return the TCP sampling after {@link #finish}, or null when it was off
   */
  TcpTrace tcp() {
    return tcp;
  }
}
