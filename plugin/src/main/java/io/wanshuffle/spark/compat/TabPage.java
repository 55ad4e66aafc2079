package io.wanshuffle.spark.compat;

import java.util.function.Function;

/**
 * A page of a Spark UI tab as every Spark line serves it: its path under the tab, and its title and
 * HTML body for a request. The line's {@code LinePage} frames it with Spark's page header (the
 * servlet request type and the header's signature differ between lines).
 */
public interface TabPage {
  /**
   * @return the page's path under its tab ({@code ""} for the tab's own page)
   */
  String prefix();

  /**
   * @param param the request's query parameters by name (null when absent)
   * @param base the UI's base path for links (proxy prefix and the tab's base path)
   * @return the page's title
   */
  String title(Function<String, String> param, String base);

  /**
   * @param param the request's query parameters by name (null when absent)
   * @param base the UI's base path for links (proxy prefix and the tab's base path)
   * @return the page's body, HTML
   */
  String body(Function<String, String> param, String base);
}
