package io.wanshuffle.cli.plan;

import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** The human-readable output of {@code plan --format text}: a summary, then one line per step. */
final class TextReport {
  private TextReport() {}

  static void print(Plan p, String matrixName, PrintWriter out) {
    var m = p.seconds();
    var pf = p.platform();
    double cost = p.cost();
    double eta = p.eta();
    out.printf(Locale.ROOT, "algorithm   %s%n", p.algorithm());
    out.printf(
        Locale.ROOT,
        "matrix      %s: %d senders x %d receivers, %d transfers, %s s in total%n",
        matrixName,
        m.rows(),
        m.cols(),
        m.nonZeroCount(),
        num(m.total()));
    out.printf(
        Locale.ROOT,
        "platform    k = %d, beta = %s s, %s%n",
        pf.k(),
        num(pf.beta()),
        pf.isOnePort() ? "1-port" : "delta-port");
    out.printf(
        Locale.ROOT,
        "cost        %s s  (%d steps: %s s setup + %s s transfer)%n",
        num(cost),
        p.schedule().stepCount(),
        num(pf.beta() * p.schedule().stepCount()),
        num(p.schedule().transmissionTime()));
    out.printf(
        Locale.ROOT,
        "eta         %s s  (lower bound: eta_d = %s s, eta_s = %d steps)%n",
        num(eta),
        num(p.bound().etaD()),
        p.bound().etaS());
    out.printf(
        Locale.ROOT,
        "ratio       %s  (cost / eta)%n",
        eta > 0 ? String.format(Locale.ROOT, "%.4f", cost / eta) : "n/a (nothing to send)");
    out.printf(
        Locale.ROOT,
        "eta_o       %s%n",
        p.bruteForceEstimate() == null
            ? "not computed (more than " + Plan.BRUTE_FORCE_LIMIT + " transfers)"
            : num(p.bruteForceEstimate())
                + " s  (Spark's default: every transfer at once, fair sharing)");
    out.printf(Locale.ROOT, "steps       %d%n", p.schedule().stepCount());
    if (p.linkOverloads() != null && p.linkOverloads() > 0) {
      out.printf(
          Locale.ROOT,
          "links       %d (step, link) pair(s) over the link's capacity: %s plans on k and"
              + " delta only; --algorithm liquid keeps every link of the topology within its capacity%n",
          p.linkOverloads(),
          p.algorithm());
    }
    if (p.schedule().stepCount() == 0) {
      out.flush();
      return;
    }
    out.println();
    List<String> snd = p.input().senderNames();
    List<String> rcv = p.input().receiverNames();
    out.println(
        "step      start   duration  transfers (sender -> receiver: seconds"
            + (snd.isEmpty() ? "; zero-based row -> column)" : ")"));
    double start = 0;
    int i = 1;
    for (Step s : p.schedule().steps()) {
      StringBuilder ts = new StringBuilder();
      for (Transfer t : s.transfers()) {
        if (ts.length() > 0) {
          ts.append(", ");
        }
        ts.append(snd.isEmpty() ? Integer.toString(t.src()) : snd.get(t.src()))
            .append(" -> ")
            .append(rcv.isEmpty() ? Integer.toString(t.dst()) : rcv.get(t.dst()))
            .append(": ")
            .append(num(t.amount()));
      }
      out.printf(Locale.ROOT, "%4d %10s %10s  %s%n", i++, num(start), num(s.duration()), ts);
      start += pf.beta() + s.duration();
    }
    out.flush();
  }

  /**
   * Seconds for people: up to 6 decimals; from 1e12 on, and for a non-zero value that 6 decimals
   * would print as 0, 6 significant digits with an exponent ({@code 7.94223e+12}, {@code 1e-09}).
   */
  static String num(double v) {
    double a = Math.abs(v);
    if (a >= 1e12 || (a > 0 && a < 5e-7)) {
      return String.format(Locale.ROOT, "%.6g", v).replaceAll("\\.?0+e", "e");
    }
    String s = String.format(Locale.ROOT, "%.6f", v);
    if (s.contains(".")) {
      s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    return s;
  }
}
