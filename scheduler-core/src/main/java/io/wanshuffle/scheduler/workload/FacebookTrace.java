package io.wanshuffle.scheduler.workload;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the Facebook coflow trace of the Coflow-Benchmark ({@value #FILE}; Chowdhury and Stoica,
 * "Efficient Coflow Scheduling Without Prior Knowledge", SIGCOMM 2015) is found: the repository
 * ships it in {@value #FOLDER}, and every command and test that replays it looks there by default.
 *
 * <p>The search order:
 *
 * <ol>
 *   <li>system property {@value #PROPERTY}, a file (when set, the only place looked at);
 *   <li>{@value #FOLDER} in the wan-shuffle folder named by system property {@value #HOME_PROPERTY}
 *       (the {@code ./wan-shuffle} launcher sets it to its own folder, so the commands find the
 *       trace from any working folder);
 *   <li>{@value #FOLDER} in the working folder or one of its parents (a module's tests run in the
 *       module's folder, one below the repository's).
 * </ol>
 */
public final class FacebookTrace {
  /** File name of the trace. */
  public static final String FILE = "FB2010-1Hr-150-0.txt";

  /** The trace's folder in the repository, relative to its root. */
  public static final String FOLDER = "data/coflow-benchmark";

  /** System property naming another trace file. */
  public static final String PROPERTY = "wanshuffle.coflowTrace";

  /** System property naming the wan-shuffle folder (the repository or the distribution). */
  public static final String HOME_PROPERTY = "wanshuffle.home";

  private FacebookTrace() {}

  /**
   * @return the trace file, if one of the places in the class comment holds it
   */
  public static Optional<Path> locate() {
    return candidates().stream().filter(Files::isRegularFile).findFirst();
  }

  /**
   * The trace file, or an error naming every place looked at.
   *
   * @return the trace file (a regular file)
   * @throws NoSuchFileException if no place holds it; the message names the places, e.g. {@code
   *     FB2010-1Hr-150-0.txt not found; looked at
   *     /srv/ws/data/coflow-benchmark/FB2010-1Hr-150-0.txt (set -Dwanshuffle.coflowTrace=FILE)}
   */
  public static Path require() throws NoSuchFileException {
    List<Path> looked = candidates();
    for (Path p : looked) {
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    throw new NoSuchFileException(
        FILE
            + " not found; looked at "
            + String.join(", ", looked.stream().map(Path::toString).toList())
            + " (the repository ships it in "
            + FOLDER
            + "/; -D"
            + PROPERTY
            + "=FILE names another copy)");
  }

  /**
   * @return the places of the class comment in order, absolute and normalized
   */
  static List<Path> candidates() {
    String named = System.getProperty(PROPERTY);
    if (named != null && !named.isBlank()) {
      return List.of(Path.of(named).toAbsolutePath().normalize());
    }
    List<Path> out = new ArrayList<>();
    String home = System.getProperty(HOME_PROPERTY);
    if (home != null && !home.isBlank()) {
      out.add(inRepository(Path.of(home)));
    }
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path p = inRepository(d);
      if (!out.contains(p)) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * @param root a repository or distribution folder
   * @return where that folder keeps the trace
   */
  public static Path inRepository(Path root) {
    return root.toAbsolutePath().resolve(FOLDER).resolve(FILE).normalize();
  }
}
