package io.wanshuffle.tools.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A self-contained HTML report (charts embedded as PNG data URLs): headings, paragraphs, tables and
 * charts in the order they are added.
 */
public final class HtmlReport {
  private final String title;
  private final List<String> parts = new ArrayList<>();

  /**
   * @param title page title
   */
  public HtmlReport(String title) {
    this.title = title;
  }

  /**
   * @param text section heading @return this
   */
  public HtmlReport heading(String text) {
    parts.add("<h2>" + esc(text) + "</h2>");
    return this;
  }

  /**
   * @param text paragraph (plain text) @return this
   */
  public HtmlReport paragraph(String text) {
    parts.add("<p>" + esc(text) + "</p>");
    return this;
  }

  /**
   * @param header column headings
   * @param rows cells, row by row (plain text)
   * @return this
   */
  public HtmlReport table(List<String> header, List<List<String>> rows) {
    StringBuilder sb = new StringBuilder("<table><tr>");
    header.forEach(h -> sb.append("<th>").append(esc(h)).append("</th>"));
    sb.append("</tr>");
    for (List<String> r : rows) {
      sb.append("<tr>");
      r.forEach(c -> sb.append("<td>").append(esc(c)).append("</td>"));
      sb.append("</tr>");
    }
    parts.add(sb.append("</table>").toString());
    return this;
  }

  /**
   * @param caption alt text and caption
   * @param png PNG bytes (from {@link Charts})
   * @return this
   */
  public HtmlReport image(String caption, byte[] png) {
    parts.add(
        "<figure><img alt=\""
            + esc(caption)
            + "\" src=\"data:image/png;base64,"
            + Base64.getEncoder().encodeToString(png)
            + "\"><figcaption>"
            + esc(caption)
            + "</figcaption></figure>");
    return this;
  }

  /**
   * Images next to each other (two Gantt charts of one stage, say), one caption under them.
   *
   * @param caption alt text and caption
   * @param pngs PNG images (from {@link Charts})
   * @return this
   */
  public HtmlReport imagesSideBySide(String caption, List<byte[]> pngs) {
    StringBuilder sb = new StringBuilder("<figure><div class=\"row\">");
    for (byte[] png : pngs) {
      sb.append("<img alt=\"")
          .append(esc(caption))
          .append("\" src=\"data:image/png;base64,")
          .append(Base64.getEncoder().encodeToString(png))
          .append("\">");
    }
    parts.add(
        sb.append("</div><figcaption>")
            .append(esc(caption))
            .append("</figcaption></figure>")
            .toString());
    return this;
  }

  /**
   * @param text a warning (plain text), shown highlighted
   * @return this
   */
  public HtmlReport note(String text) {
    parts.add("<p class=\"note\">" + esc(text) + "</p>");
    return this;
  }

  /**
   * Writes the page.
   *
   * @param file target file (parent folders are created)
   * @return {@code file}
   * @throws UncheckedIOException if it cannot be written
   */
  public Path write(Path file) {
    StringBuilder sb =
        new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
            .append(esc(title))
            .append(
                "</title><style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
                    + "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}"
                    + "th{background:#eee}td:first-child{text-align:left}figure{margin:1em 0}"
                    + ".row{display:flex;gap:8px}.row img{max-width:50%}"
                    + ".note{background:#fff3cd;border-left:4px solid #e0a800;padding:4px 8px}</style></head><body><h1>")
            .append(esc(title))
            .append("</h1>\n");
    parts.forEach(p -> sb.append(p).append('\n'));
    sb.append("</body></html>\n");
    try {
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      Files.writeString(file, sb.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write report " + file, e);
    }
    return file;
  }

  static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
