package io.wanshuffle.it.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs short system commands (ip, tc, nft, nstat) and fails with the command line and its stderr.
 */
public final class Exec {
  private Exec() {}

  /**
   * Result of one finished command.
   *
   * @param exitCode its exit status
   * @param stdout its standard output
   * @param stderr its standard error
   */
  public record Result(int exitCode, String stdout, String stderr) {}

  /**
   * Runs a command and waits for it (at most 60 s).
   *
   * @param command program and arguments
   * @return exit code and captured output, whatever the exit code
   * @throws IllegalStateException if the program cannot be started or does not finish in time
   */
  public static Result run(List<String> command) {
    ProcessBuilder pb = new ProcessBuilder(command);
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      CompletableFuture<String> out = drain(p.getInputStream());
      CompletableFuture<String> err = drain(p.getErrorStream());
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(
            "command did not finish in 60 s: " + String.join(" ", command));
      }
      return new Result(p.exitValue(), out.join(), err.join());
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
    }
  }

  /**
   * Runs a command that must succeed.
   *
   * @param command program and arguments
   * @return its standard output
   * @throws IllegalStateException naming the command, exit code and stderr when it fails
   */
  public static String check(String... command) {
    List<String> cmd = List.of(command);
    Result r = run(cmd);
    if (r.exitCode() != 0) {
      throw new IllegalStateException(
          "`"
              + String.join(" ", cmd)
              + "` failed (exit "
              + r.exitCode()
              + "): "
              + r.stderr().strip());
    }
    return r.stdout();
  }

  /**
   * @return the standard output of a command, or null when it fails (for error messages)
   */
  static String quietOutput(String... command) {
    try {
      Result r = run(List.of(command));
      return r.exitCode() == 0 ? r.stdout() : null;
    } catch (IllegalStateException e) {
      return null;
    }
  }

  /** Runs a command whose failure is tolerated (used by teardown); returns true on success. */
  static boolean quiet(String... command) {
    try {
      return run(List.of(command)).exitCode() == 0;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  /**
   * @return true if {@code program} is found on the PATH (or is an executable path)
   */
  public static boolean onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    List<String> dirs = new ArrayList<>(List.of(path.split(":")));
    dirs.add("/usr/sbin");
    dirs.add("/sbin");
    for (String d : dirs) {
      if (!d.isEmpty() && new java.io.File(d, program).canExecute()) {
        return true;
      }
    }
    return false;
  }

  private static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            return "";
          }
        });
  }
}
