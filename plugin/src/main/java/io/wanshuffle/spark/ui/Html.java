package io.wanshuffle.spark.ui;

import java.util.List;
import java.util.Locale;
import scala.xml.Utility;

/** Small HTML pieces of the tab's pages, text escaped with scala-xml (Spark's own XML library). */
final class Html {
  private Html() {}

  /**
   * @return {@code s} with {@code < > & "} escaped
   */
  static String esc(String s) {
    return Utility.escape(s == null ? "" : s);
  }

  /**
   * @return bytes as MB with one decimal
   */
  static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
  }

  /**
   * @return seconds with two decimals, "-" for NaN
   */
  static String seconds(double s) {
    return Double.isNaN(s) || Double.isInfinite(s) ? "-" : String.format(Locale.ROOT, "%.2f", s);
  }

  /**
   * A table in Spark's style; cells are HTML (escape text with {@link #esc}).
   *
   * @param id the table's element id
   * @param header column headings (text)
   * @param rows rows of HTML cells
   * @return the table
   */
  static String table(String id, List<String> header, List<List<String>> rows) {
    StringBuilder sb =
        new StringBuilder("<table id=\"")
            .append(esc(id))
            .append("\" class=\"table table-bordered table-sm table-striped\"><thead><tr>");
    header.forEach(h -> sb.append("<th>").append(esc(h)).append("</th>"));
    sb.append("</tr></thead><tbody>");
    for (List<String> r : rows) {
      sb.append("<tr>");
      r.forEach(c -> sb.append("<td>").append(c).append("</td>"));
      sb.append("</tr>");
    }
    return sb.append("</tbody></table>").toString();
  }

  /**
   * @return a link
   */
  static String link(String href, String text) {
    return "<a href=\"" + esc(href) + "\">" + esc(text) + "</a>";
  }
}
