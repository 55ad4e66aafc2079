package io.wanshuffle.cli;

/** The {@code --format} of the CLI's commands. */
public enum OutputFormat {
  /** one JSON object on stdout, for programs (shape documented per command in docs/cli.md) */
  json,
  /** a summary and a table, for people */
  text
}
