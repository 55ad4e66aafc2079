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
 * A {@link TabPage} in Spark 4.2's UI: its HTML framed by Spark's page header (Jakarta servlet
 * request, {@code UIUtils.headerSparkPage} with eight parameters, the last at its default).
 */
public final class LinePage extends WebUIPage {
  private final SparkUITab tab;
  private final TabPage page;

  /**
   * @param tab the tab the page belongs to
   * @param page the page
   */
  public LinePage(SparkUITab tab, TabPage page) {
    super(page.prefix());
    this.tab = tab;
    this.page = page;
  }

  @Override
  public Seq<Node> render(HttpServletRequest request) {
    String base = UIUtils.prependBaseUri(request, tab.basePath(), "");
    String html = page.body(request::getParameter, base);
    String title = page.title(request::getParameter, base);
    return UIUtils.headerSparkPage(
        request,
        title,
        () -> new Unparsed(html),
        tab,
        Option.empty(),
        false,
        false,
        UIUtils.headerSparkPage$default$8());
  }
}
