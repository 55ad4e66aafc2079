package io.wanshuffle.tools.report;

import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * Keeps Spark's own log lines off the report's stderr. Reading an event log loads Spark classes
 * (its codecs, {@code JsonProtocol}) that log; with no log4j 2 configuration given, Spark would
 * switch to its default profile on first use, print "Using Spark's default log4j profile" and its
 * warnings (a host name that resolves to a loopback address, say) before the report's one line.
 * This sets errors only, on stderr, in that case; a configuration the user gives ({@code
 * -Dlog4j2.configurationFile}, a {@code log4j2.properties} on the class path) is left alone.
 */
final class QuietSparkLogs {
  private QuietSparkLogs() {}

  /**
   * Sets errors only in each log4j 2 context that runs on its built-in default configuration: the
   * class loader's (Spark's loggers) and the current one (which Spark looks at to tell whether
   * log4j 2 is configured).
   */
  static void apply() {
    for (Object c : List.of(LogManager.getContext(false), LogManager.getContext())) {
      if (c instanceof LoggerContext ctx
          && ctx.getConfiguration() instanceof DefaultConfiguration) {
        ctx.reconfigure(errorsOnly());
      }
    }
  }

  private static BuiltConfiguration errorsOnly() {
    ConfigurationBuilder<BuiltConfiguration> b =
        ConfigurationBuilderFactory.newConfigurationBuilder();
    b.setConfigurationName("wan-shuffle report: errors only");
    b.add(
        b.newAppender("stderr", "Console")
            .addAttribute("target", ConsoleAppender.Target.SYSTEM_ERR)
            .add(b.newLayout("PatternLayout").addAttribute("pattern", "%p %c{1}: %m%n")));
    b.add(b.newRootLogger(Level.ERROR).add(b.newAppenderRef("stderr")));
    return b.build();
  }
}
