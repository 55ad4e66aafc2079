package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.job.JobLayout;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.it.spark.SparkHome;
import io.wanshuffle.spark.reader.TaskAccumulators;
import io.wanshuffle.tools.report.ReportCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * What an operator sees of one gated application on the loopback two-cluster deployment: the WAN
 * Shuffle tab of the live Spark UI and of a History Server started on the application's event log
 * (fetched over HTTP, and rendered in headless Chromium without a script error), the reduce tasks'
 * named accumulators on Spark's stage data, the driver's sources on Spark's Prometheus servlet, the
 * executors' reader source in their metrics sink, and {@code ./wan-shuffle report} on the capture
 * folder and on the event log. One application and one History Server for the whole class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(SharedLoopbackCluster.class)
class OperatorViewsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          // Jetty answers a servlet context's path without its trailing slash with a redirect
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  static SparkCluster cluster;
  static SparkSession spark;
  static String appId;
  static String ui;
  static Path dir;
  static Path eventLogs;
  static Path capture;
  static Path executorMetrics;
  static Process history;
  static String historyUi;

  @BeforeAll
  static void start(SparkCluster shared) throws Exception {
    cluster = shared;
    dir = Files.createDirectories(cluster.runDir().resolve("operator-views"));
    eventLogs = Files.createDirectories(dir.resolve("event-logs"));
    executorMetrics = Files.createDirectories(dir.resolve("executor-metrics"));
    capture = cluster.runDir().resolve("capture");
    spark =
        SparkSession.builder()
            .config(
                PluginConf.plugin(cluster, "operator-views")
                    .set("spark.ui.enabled", "true")
                    .set("spark.ui.port", "0")
                    .set("spark.eventLog.enabled", "true")
                    .set("spark.eventLog.compress", "false")
                    .set("spark.eventLog.dir", eventLogs.toUri().toString())
                    .set("spark.ui.prometheus.enabled", "true")
                    .set(
                        "spark.metrics.conf.*.sink.prometheusServlet.class",
                        "org.apache.spark.metrics.sink.PrometheusServlet")
                    .set("spark.metrics.conf.*.sink.prometheusServlet.path", "/metrics/prometheus")
                    .set(
                        "spark.metrics.conf.executor.sink.csv.class",
                        "org.apache.spark.metrics.sink.CsvSink")
                    .set(
                        "spark.metrics.conf.executor.sink.csv.directory",
                        executorMetrics.toString())
                    .set("spark.metrics.conf.executor.sink.csv.period", "1")
                    .set("spark.metrics.conf.executor.sink.csv.unit", "seconds"))
            .getOrCreate();
    cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(120));
    appId = spark.sparkContext().applicationId();
    ui = spark.sparkContext().uiWebUrl().get();
    // maps on all four nodes, reduces on cluster B: A -> B blocks are gated
    JobLayout layout =
        new JobLayout(
            Node.addresses(cluster.testbed().workers()),
            Node.addresses(cluster.testbed().clusterB()),
            8,
            4,
            4000);
    List<String> rows =
        ShuffleJobs.reduceByKey(
            JavaSparkContext.fromSparkContext(spark.sparkContext()), layout, 11);
    assertEquals(ShuffleJobs.reduceByKeyOracle(layout, 11), rows);
    // the stage's event reaches the tab's listener asynchronously
    await(
        () -> get(ui + "/wanshuffle/").contains("id=\"wanshuffle-stages\""),
        "the live tab's stage");
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
      spark = null;
    }
    if (history != null) {
      history.destroy();
      try {
        history.waitFor(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      history.destroyForcibly();
    }
  }

  interface Check {
    boolean ok() throws Exception;
  }

  static void await(Check c, String what) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    Exception last = null;
    while (System.nanoTime() < end) {
      try {
        if (c.ok()) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("not within 90 s: " + what + (last == null ? "" : " (" + last + ")"));
  }

  static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException(url + ": HTTP " + r.statusCode());
    }
    return r.body();
  }

  /** The reduce stage's id on the tab's page (its link to the stage page). */
  static String stageId(String page) {
    Matcher m = Pattern.compile("wanshuffle/stage/\\?id=(\\d+\\.\\d+)").matcher(page);
    assertTrue(m.find(), page);
    return m.group(1);
  }

  @Test
  @Order(1)
  void theLiveTabListsTheGatedStageAndItsPageHasTheStepTable() throws Exception {
    String page = get(ui + "/wanshuffle/");
    assertTrue(page.contains(">WAN Shuffle<"), "the tab in the header");
    assertTrue(page.contains("<td>auto</td><td>2</td><td>2 x 2, 4</td>"), page);
    String stage = get(ui + "/wanshuffle/stage/?id=" + stageId(page));
    for (String id :
        List.of(
            "wanshuffle-stage-figures",
            "wanshuffle-links",
            "wanshuffle-steps",
            "wanshuffle-matrix")) {
      assertTrue(stage.contains("id=\"" + id + "\""), id + " in " + stage);
    }
    assertTrue(stage.contains("backbone.out[/A]"), stage);
  }

  @Test
  @Order(2)
  void theReduceStageCarriesTheNamedAccumulators() throws Exception {
    String id = stageId(get(ui + "/wanshuffle/")).split("\\.")[0];
    JsonNode stages = JSON.readTree(get(ui + "/api/v1/applications/" + appId + "/stages/" + id));
    long gated = -1;
    boolean wait = false;
    for (JsonNode s : stages) {
      for (JsonNode a : s.path("accumulatorUpdates")) {
        if (a.path("name").asText().equals(TaskAccumulators.GATED_BYTES)) {
          gated = Long.parseLong(a.path("value").asText());
        }
        wait |= a.path("name").asText().equals(TaskAccumulators.GRANT_WAIT);
      }
    }
    assertTrue(gated > 0, "gated bytes of the reduce stage: " + stages);
    assertTrue(wait, "grant wait of the reduce stage: " + stages);
    // Spark's stage page draws its accumulator table in the browser (stagepage.js) from this REST
    // answer, leaving out names that contain "internal."
    String html = get(ui + "/stages/stage/?id=" + id + "&attempt=0");
    assertTrue(html.contains("stagepage.js"), "the stage page draws its tables in the browser");
    assertFalse(TaskAccumulators.GATED_BYTES.contains("internal."));
    assertFalse(TaskAccumulators.GRANT_WAIT.contains("internal."));
  }

  private static long metric(String text, String name) {
    Matcher m = Pattern.compile("_" + Pattern.quote(name) + "\\S* (\\d+)").matcher(text);
    assertTrue(m.find(), name + " in\n" + text);
    return Long.parseLong(m.group(1));
  }

  @Test
  @Order(3)
  void prometheusServesTheDriverSourcesAndTheExecutorsHaveTheirs() throws Exception {
    String driver = get(ui + "/metrics/prometheus");
    assertTrue(metric(driver, "driver_wanShuffle_steps_Count") > 0, driver);
    assertTrue(metric(driver, "driver_wanShuffle_realisedBytes_Count") > 0, driver);
    assertTrue(metric(driver, "driver_wanShuffleTasks_gatedBytes_Value") > 0, driver);
    String executors = get(ui + "/metrics/executors/prometheus");
    assertTrue(executors.contains("metrics_executor_"), executors);
    // executors have no web server: their reader source reaches their sinks (here a CSV sink)
    await(
        () -> {
          try (Stream<Path> s = Files.list(executorMetrics)) {
            return s.anyMatch(
                f -> {
                  String n = f.getFileName().toString();
                  if (!n.endsWith(".wanShuffleReader.gatedBytes.csv")) {
                    return false;
                  }
                  try {
                    List<String> lines = Files.readAllLines(f);
                    String last = lines.get(lines.size() - 1);
                    return Long.parseLong(last.substring(last.indexOf(',') + 1).trim()) > 0;
                  } catch (IOException | RuntimeException e) {
                    return false;
                  }
                });
          }
        },
        "an executor's wanShuffleReader.gatedBytes above 0 in " + executorMetrics);
  }

  @Test
  @Order(4)
  void theLiveTabRendersInChromiumWithoutAScriptError() throws Exception {
    Assumptions.assumeTrue(
        HeadlessChromium.installed(),
        "no " + HeadlessChromium.BINARY + " (apt-get install chromium; .ci/run does)");
    String page = get(ui + "/wanshuffle/");
    try (HeadlessChromium c = HeadlessChromium.start()) {
      render(c, ui + "/wanshuffle/", "live-tab.png");
      render(c, ui + "/wanshuffle/stage/?id=" + stageId(page), "live-stage.png");
    }
  }

  private static void render(HeadlessChromium c, String url, String png) throws IOException {
    HeadlessChromium.Page p = c.load(url);
    Files.write(dir.resolve(png), p.png());
    assertEquals(List.of(), p.errors(), "script errors on " + url);
    assertTrue(p.png().length > 10_000, "a screenshot of " + url);
  }

  @Test
  @Order(5)
  void theHistoryServerShowsTheTabFromTheEventLog() throws Exception {
    String live = get(ui + "/wanshuffle/");
    String stage = stageId(live);
    spark.stop();
    spark = null;
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    history =
        cluster.launchJava(
            cluster.testbed().control(),
            "history-server",
            List.of(
                "-Xmx384m",
                "-Dspark.history.fs.logDirectory=" + eventLogs.toUri(),
                "-Dspark.history.fs.update.interval=1s",
                "-Dspark.history.ui.port=" + port),
            SparkHome.locate().classPath() + java.io.File.pathSeparator + AppJars.pluginJar(),
            "org.apache.spark.deploy.history.HistoryServer",
            List.of());
    historyUi = "http://" + cluster.testbed().control().address() + ":" + port;
    String tab = historyUi + "/history/" + appId + "/wanshuffle/";
    await(() -> get(tab).contains("id=\"wanshuffle-stages\""), "the History Server's tab");
    String page = get(tab);
    assertTrue(page.contains("<td>auto</td><td>2</td><td>2 x 2, 4</td>"), page);
    assertTrue(page.contains("/history/" + appId + "/wanshuffle/stage/?id=" + stage), page);
    String stagePage = get(historyUi + "/history/" + appId + "/wanshuffle/stage/?id=" + stage);
    assertTrue(stagePage.contains("id=\"wanshuffle-steps\""), stagePage);
    if (HeadlessChromium.installed()) {
      try (HeadlessChromium c = HeadlessChromium.start()) {
        render(c, tab, "history-tab.png");
        render(
            c,
            historyUi + "/history/" + appId + "/wanshuffle/stage/?id=" + stage,
            "history-stage.png");
      }
    }
  }

  private static String[] report(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        new CommandLine(new ReportCommand())
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(args);
    return new String[] {Integer.toString(status), out.toString(), err.toString()};
  }

  @Test
  @Order(6)
  void theReportReadsTheCaptureAndTheEventLog() throws Exception {
    Path appCapture = capture.resolve(appId);
    String[] r =
        report(
            "--capture",
            appCapture.toString(),
            "--out",
            dir.resolve("report-capture.html").toString());
    assertEquals("0", r[0], r[2]);
    r =
        report(
            "--event-log",
            eventLogs.toString(),
            "--out",
            dir.resolve("report-events.html").toString());
    assertEquals("0", r[0], r[2]);
    for (String f : List.of("report-capture.html", "report-events.html")) {
      String html = Files.readString(dir.resolve(f));
      assertTrue(html.contains("backbone.out[/A]"), f);
      assertTrue(html.split("<img ", -1).length - 1 >= 5, f + ": the charts");
      assertTrue(!html.contains("class=\"note\""), f + ": " + r[1]);
    }
    if (HeadlessChromium.installed()) {
      try (HeadlessChromium c = HeadlessChromium.start()) {
        render(c, dir.resolve("report-capture.html").toUri().toString(), "report.png");
      }
    }
  }
}
