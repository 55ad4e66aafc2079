package io.wanshuffle.bench.speed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A one-line description of the machine the benchmark ran on (CPU, cores, RAM, OS, JVM). */
final class MachineInfo {
  private MachineInfo() {}

  static String describe() {
    String cpu = "unknown CPU";
    long memKb = -1;
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
      for (String l : lines) {
        if (l.startsWith("model name")) {
          cpu = l.substring(l.indexOf(':') + 1).strip();
          break;
        }
      }
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal:")) {
          memKb = Long.parseLong(l.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: keep what we have
    }
    String mem = memKb > 0 ? String.format("%.1f GiB RAM", memKb / 1024.0 / 1024.0) : "RAM unknown";
    return cpu
        + ", "
        + Runtime.getRuntime().availableProcessors()
        + " cores visible to the JVM, "
        + mem
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version")
        + ", "
        + System.getProperty("java.vm.name")
        + " "
        + System.getProperty("java.version");
  }
}
