package io.wanshuffle.it.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentTest {
  @TempDir Path dir;

  @Test
  void aFailedDriverSaysWhichExceptionEndedIt() throws Exception {
    Path log =
        Files.writeString(
            dir.resolve("driver.log"),
            String.join(
                "\n",
                "26/11/26 14:20:01 INFO SparkContext: Running Spark version 4.1.3",
                "java.lang.reflect.InvocationTargetException",
                "Caused by: io.wanshuffle.spark.config.ConfigValueException: spark.wanshuffle.k = '0': must be >= 1",
                "Exception in thread \"main\" io.wanshuffle.spark.config.ConfigValueException: spark.wanshuffle.k = '0':"
                    + " must be >= 1",
                "\tat io.wanshuffle.spark.config.WanShuffleConf.<init>(WanShuffleConf.java:1)",
                ""));
    assertEquals(
        Optional.of(
            "io.wanshuffle.spark.config.ConfigValueException: spark.wanshuffle.k = '0': must be >= 1"),
        SubmissionRun.mainThreadException(log));
    Path quiet = Files.writeString(dir.resolve("quiet.log"), "INFO nothing thrown\n");
    assertEquals(Optional.empty(), SubmissionRun.mainThreadException(quiet), "exit status only");
    assertEquals(Optional.empty(), SubmissionRun.mainThreadException(dir.resolve("missing.log")));
    Path longOne =
        Files.writeString(
            dir.resolve("long.log"), "Exception in thread \"main\" " + "x".repeat(1000));
    assertEquals(300, SubmissionRun.mainThreadException(longOne).orElseThrow().length());
  }

  @Test
  void filesToShipGoToSparkSubmitsFilesOptionAndEverythingElseToConf() {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.master", "spark://x:7077");
    conf.put("spark.files", "/r/topology.table,/r/topology.conf");
    conf.put("spark.wanshuffle.topology.file", "topology.conf");
    List<String> args =
        new Submission(
                Path.of("/app.jar"),
                "a.Main",
                List.of("1"),
                conf,
                List.of(Path.of("/plugin.jar")),
                "1g")
            .sparkSubmitArgs("spark://x:7077", "client", conf);
    assertEquals(
        List.of(
            "--master",
            "spark://x:7077",
            "--deploy-mode",
            "client",
            "--class",
            "a.Main",
            "--jars",
            "/plugin.jar",
            "--files",
            "/r/topology.table,/r/topology.conf",
            "--conf",
            "spark.master=spark://x:7077",
            "--conf",
            "spark.wanshuffle.topology.file=topology.conf",
            "/app.jar",
            "1"),
        args);
    List<String> yarn =
        new Submission(Path.of("/app.jar"), null, List.of(), Map.of(), List.of(), "1g")
            .sparkSubmitArgs("yarn", "cluster", Map.of());
    assertEquals(List.of("--master", "yarn", "--deploy-mode", "cluster", "/app.jar"), yarn);
  }
}
