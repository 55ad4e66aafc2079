package io.wanshuffle.bench.speed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts {@link SpeedProbe} in a child JVM with a heap cap and kills it at the time limit. */
final class ProbeRunner {
  private final String heap;
  private final double timeLimitSeconds;

  ProbeRunner(String heap, double timeLimitSeconds) {
    this.heap = heap;
    this.timeLimitSeconds = timeLimitSeconds;
  }

  ProbeResult run(String algorithm, int n, long seed) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path out = Files.createTempFile("speed-probe", ".out");
    Path err = Files.createTempFile("speed-probe", ".err");
    try {
      Process p =
          new ProcessBuilder(
                  List.of(
                      java,
                      "-Xmx" + heap,
                      "-cp",
                      System.getProperty("java.class.path"),
                      SpeedProbe.class.getName(),
                      algorithm,
                      Integer.toString(n),
                      Long.toString(seed),
                      Double.toString(timeLimitSeconds / 2)))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!p.waitFor((long) (timeLimitSeconds * 1000), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        p.waitFor();
        return ProbeResult.timeLimit(timeLimitSeconds);
      }
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0 || lines.isEmpty()) {
        List<String> e = Files.readAllLines(err, StandardCharsets.UTF_8);
        String why =
            e.stream().filter(l -> !l.isBlank()).findFirst().orElse("exit " + p.exitValue());
        return ProbeResult.failed(why.strip());
      }
      return ProbeResult.parse(lines.get(lines.size() - 1));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
