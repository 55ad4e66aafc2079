package io.wanshuffle.it.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoCommandTest {
  @Test
  void repeatedConfOptionsAreCollectedForTheWanShuffleRuns() {
    DemoCommand cmd = new DemoCommand();
    new CommandLine(cmd).parseArgs("--trace-mb", "0", "--conf", "spark.wanshuffle.step.handover=arrival",
        "--conf", "spark.wanshuffle.k=3");
    assertEquals(Map.of("spark.wanshuffle.step.handover", "arrival", "spark.wanshuffle.k", "3"),
        cmd.opt.extraConf);
    DemoCommand plain = new DemoCommand();
    new CommandLine(plain).parseArgs();
    assertTrue(plain.opt.extraConf.isEmpty(), "no --conf: the plugin's defaults");
  }
}
