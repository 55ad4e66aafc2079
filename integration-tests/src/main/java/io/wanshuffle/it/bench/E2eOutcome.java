package io.wanshuffle.it.bench;

import java.util.List;

/**
 * What an {@code e2e-bench} run measured: its cells with every run's answer checked, and the faults
 * injected into its runs ({@code --fault}).
 *
 * @param cells the cells, in the order they ran
 * @param runs the applications' runner, which holds the faults of each cell's runs
 */
record E2eOutcome(MeasuredCells cells, CellRuns runs) {

  /**
   * @param command the command's name for the error lines
   * @return 1 when a run answered wrong or a fault could not be injected or undone (said on
   *     standard error), else 0
   */
  int exitStatus(String command) {
    List<String> wrongAnswers = cells.wrongAnswers();
    if (runs.faultFailed()) {
      System.err.println(
          command
              + ": a fault could not be injected or undone (see the runs' faults/*.faults.json)");
    }
    if (!wrongAnswers.isEmpty()) {
      System.err.println(
          command + ": " + wrongAnswers.size() + " run(s) with a wrong answer: " + wrongAnswers);
      return 1;
    }
    return runs.faultFailed() ? 1 : 0;
  }
}
