package io.wanshuffle.spark.compat;

import jakarta.servlet.http.HttpServletRequest;
import org.apache.spark.ui.SparkUITab;
import org.apache.spark.ui.UIUtils;
import org.apache.spark.ui.WebUIPage;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.xml.Node;
import scala.xml.Unparsed;

/**
 * A page of a Spark UI tab whose body is an HTML string, framed by Spark's page header (Spark 4.1:
 * Jakarta servlet request, {@code UIUtils.headerSparkPage} with seven parameters).
 */
public abstract class LinePage extends WebUIPage {
  private final SparkUITab tab;

  /**
   * @param prefix the page's path under its tab ({@code ""} for the tab's own page)
   * @param tab the tab the page belongs to
   */
  protected LinePage(String prefix, SparkUITab tab) {
    super(prefix);
    this.tab = tab;
  }

  /**
   * @param param the request's query parameters by name (null when absent)
   * @param base the UI's base path for links (proxy prefix and the tab's base path)
   * @return the page's title
   */
  protected abstract String title(java.util.function.Function<String, String> param, String base);

  /**
   * @param param the request's query parameters by name (null when absent)
   * @param base the UI's base path for links (proxy prefix and the tab's base path)
   * @return the page's body, HTML
   */
  protected abstract String body(java.util.function.Function<String, String> param, String base);

  @Override
  public Seq<Node> render(HttpServletRequest request) {
    String base = UIUtils.prependBaseUri(request, tab.basePath(), "");
    String title = title(request::getParameter, base);
    String html = body(request::getParameter, base);
    return UIUtils.headerSparkPage(
        request, title, () -> new Unparsed(html), tab, Option.empty(), false, false);
  }
}
