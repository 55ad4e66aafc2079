package io.wanshuffle.bench.liquid;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Markdown section of the two-cluster Facebook-trace comparison ({@link FacebookRacks}). */
final class FacebookReport {
  private FacebookReport() {}

  static String markdown(
      List<FacebookRacks.Row> rows,
      FacebookRacks.Layout layout,
      Path trace,
      int backboneNics,
      double beta,
      String blind,
      int maxPairs,
      int skipped) {
    int n = rows.size();
    StringBuilder sb = new StringBuilder();
    boolean fixed = layout == FacebookRacks.Layout.FIXED;
    sb.append("## ")
        .append(fixed ? "2" : "3")
        .append(". Two clusters, 4 racks each, 2:1")
        .append(" oversubscribed uplinks (")
        .append(fixed ? "fixed racks of all trace ports" : "racks of each coflow's own hosts")
        .append("): `liquid` vs rack-blind `")
        .append(blind)
        .append("`\n\n");
    sb.append("Trace `")
        .append(trace.getFileName())
        .append("`: each of its ports (a rack-level")
        .append(" mapper/reducer) is one host; ports 0..74 form cluster A, 75..149 cluster B")
        .append(" (`TwoClusterSplit.halves`); ")
        .append(
            fixed
                ? "each cluster has 4 racks of consecutive ports (about 19 hosts each)."
                : "for each coflow, its hosts in each cluster are put, in port order, into 4 racks"
                    + " (a cluster-sized allocation of the job's executors).")
        .append(" NIC = 125 MB/s (the base speed); rack uplink and downlink = ⌈hosts/2⌉ NICs")
        .append(" (2:1); each cluster's backbone side = ")
        .append(backboneNics)
        .append(" NICs (k = ")
        .append(backboneNics)
        .append("). Instance = the A→B part of each coflow (bytes spread")
        .append(" evenly over its mappers), β = ")
        .append(beta)
        .append(" s. `")
        .append(blind)
        .append("` plans on the KPBS view (k, δ) without racks; *split* = its schedule with each")
        .append(" overloaded step split (first fit) into steps that respect every link, what the")
        .append(" network would enforce. Bound = generalised η (every link l: load/c, ⌈flows/c⌉).")
        .append(" Instances: ")
        .append(n)
        .append(" (")
        .append(skipped)
        .append(" skipped with more than ")
        .append(maxPairs)
        .append(" pairs).\n\n");
    if (n == 0) {
      return sb.append("No instance.\n\n").toString();
    }
    double[] liqRatio = new double[n];
    double[] flowRatio = new double[n];
    int flowBeatsSplit = 0;
    int flowLosesToSplit = 0;
    double[] blindRatio = new double[n];
    double[] splitRatio = new double[n];
    double[] liqVsSplit = new double[n];
    double[] secs = new double[n];
    int withOverload = 0;
    long overloads = 0;
    long blindSteps = 0;
    int liquidBetter = 0;
    int liquidWorse = 0;
    int racksBind = 0;
    double sumLiq = 0;
    double sumSplit = 0;
    double sumBlind = 0;
    double sumBound = 0;
    for (int i = 0; i < n; i++) {
      FacebookRacks.Row r = rows.get(i);
      liqRatio[i] = r.liquid() / r.bound();
      blindRatio[i] = r.blind() / r.bound();
      flowRatio[i] = r.flowOnly() / r.bound();
      if (r.flowOnly() < r.blindSplit() - 1e-9) {
        flowBeatsSplit++;
      } else if (r.flowOnly() > r.blindSplit() + 1e-9) {
        flowLosesToSplit++;
      }
      splitRatio[i] = r.blindSplit() / r.bound();
      liqVsSplit[i] = r.liquid() / r.blindSplit();
      secs[i] = r.liquidSeconds();
      if (r.overloads() > 0) {
        withOverload++;
      }
      overloads += r.overloads();
      blindSteps += r.blindSteps();
      if (r.liquid() < r.blindSplit() - 1e-9) {
        liquidBetter++;
      } else if (r.liquid() > r.blindSplit() + 1e-9) {
        liquidWorse++;
      }
      if (r.bound() > r.kpbsBound() + 1e-9) {
        racksBind++;
      }
      sumLiq += r.liquid();
      sumSplit += r.blindSplit();
      sumBlind += r.blind();
      sumBound += r.bound();
    }
    sb.append("| measure | value |\n| --- | --- |\n");
    sb.append(row("instances where the racks raise the bound above the KPBS η", pct(racksBind, n)));
    sb.append(row("instances where `" + blind + "` overloads a link", pct(withOverload, n)));
    sb.append(
        row(
            "overloaded (step, link) pairs of `" + blind + "` / its steps",
            overloads + " / " + blindSteps));
    sb.append(row("cost / bound, `liquid`: mean, median, max", stats(liqRatio)));
    sb.append(
        row(
            "cost / bound, `liquid` flow-chosen steps alone (no split `" + blind + "` candidate)",
            stats(flowRatio)));
    sb.append(
        row(
            "flow-chosen steps alone cheaper / dearer than split `" + blind + "`",
            flowBeatsSplit + " / " + flowLosesToSplit));
    sb.append(
        row(
            "cost / bound, `" + blind + "` as planned (infeasible where overloaded)",
            stats(blindRatio)));
    sb.append(row("cost / bound, `" + blind + "` split to respect the links", stats(splitRatio)));
    sb.append(row("`liquid` / split `" + blind + "`: mean, median, max", stats(liqVsSplit)));
    sb.append(
        row(
            "`liquid` cheaper / dearer than split `" + blind + "`",
            liquidBetter + " / " + liquidWorse));
    sb.append(
        row(
            "total cost over all instances: liquid / split / as planned / bound",
            String.format(
                Locale.ROOT, "%.0f / %.0f / %.0f / %.0f s", sumLiq, sumSplit, sumBlind, sumBound)));
    sb.append(
        row(
            "`liquid` planning time: median, max",
            String.format(
                Locale.ROOT, "%.3f s, %.3f s", median(secs), Arrays.stream(secs).max().orElse(0))));
    sb.append("\n<details><summary>largest 25 instances</summary>\n\n");
    sb.append("| coflow | senders x receivers | bound | KPBS η | liquid | ")
        .append(blind)
        .append(
            " | split | flow steps alone | overloads |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    rows.stream()
        .sorted((a, b) -> Integer.compare(b.rows() * b.cols(), a.rows() * a.cols()))
        .limit(25)
        .forEach(
            r ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "| %d | %d x %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d |%n",
                        r.coflowId(),
                        r.rows(),
                        r.cols(),
                        r.bound(),
                        r.kpbsBound(),
                        r.liquid(),
                        r.blind(),
                        r.blindSplit(),
                        r.flowOnly(),
                        r.overloads())));
    sb.append("\n</details>\n\n");
    return sb.toString();
  }

  private static String row(String a, String b) {
    return "| " + a + " | " + b + " |\n";
  }

  private static String pct(int a, int n) {
    return String.format(Locale.ROOT, "%d (%.1f%%)", a, 100.0 * a / n);
  }

  private static String stats(double[] x) {
    return String.format(
        Locale.ROOT,
        "%.3f, %.3f, %.3f",
        Arrays.stream(x).average().orElse(0),
        median(x),
        Arrays.stream(x).max().orElse(0));
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
