package io.wanshuffle.scheduler.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the Facebook trace for tests: system property {@code wanshuffle.coflowTrace}, else {@code
 * shared/data/coflow-benchmark/FB2010-1Hr-150-0.txt} in the working directory or one of its parents
 * (the project sits next to {@code shared/}).
 */
final class TraceFiles {
  static final String NAME = "FB2010-1Hr-150-0.txt";

  private TraceFiles() {}

  static Optional<Path> facebook() {
    String prop = System.getProperty("wanshuffle.coflowTrace");
    if (prop != null) {
      return Optional.of(Path.of(prop));
    }
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path p = d.resolve("shared/data/coflow-benchmark").resolve(NAME);
      if (Files.isRegularFile(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
