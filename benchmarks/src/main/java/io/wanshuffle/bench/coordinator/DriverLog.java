package io.wanshuffle.bench.coordinator;

import java.nio.file.Path;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;

/**
 * The driver's log during a run: the plugin's loggers at INFO, as a driver runs them (the
 * coordinator logs every step it grants), everything else at WARN, into one file of the run's
 * folder instead of the terminal.
 */
final class DriverLog {
  private DriverLog() {}

  /**
   * Sends this JVM's log4j2 output to {@code file} from now on.
   *
   * @param file the log file
   */
  static void to(Path file) {
    ConfigurationBuilder<BuiltConfiguration> b =
        ConfigurationBuilderFactory.newConfigurationBuilder();
    b.setStatusLevel(Level.ERROR);
    b.add(
        b.newAppender("run", "File")
            .addAttribute("fileName", file.toAbsolutePath().toString())
            .addAttribute("append", false)
            .add(
                b.newLayout("PatternLayout")
                    .addAttribute("pattern", "%d{HH:mm:ss.SSS} %p %c{1}: %m%n")));
    b.add(
        b.newLogger("io.wanshuffle", Level.INFO)
            .add(b.newAppenderRef("run"))
            .addAttribute("additivity", false));
    b.add(b.newRootLogger(Level.WARN).add(b.newAppenderRef("run")));
    Configurator.reconfigure(b.build());
  }
}
