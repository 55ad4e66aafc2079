package io.wanshuffle.spark.config;

import java.util.List;
import java.util.Optional;

/**
 * The {@value Settings#PREFIX} settings of what the plugin records and who listens to the
 * coordinator: extra coordinator listeners, the capture's directory, its events on Spark's listener
 * bus and its metrics source ({@link Section#CAPTURE}; {@code listeners} is documented with the
 * steps). Declared here, apart from {@link Settings} (which lists them after its own, {@link
 * Settings#all()}), so that each file stays a readable size; read them like any setting, e.g.
 * {@code conf.get(CaptureSettings.CAPTURE_DIR)}.
 */
public final class CaptureSettings {
  private CaptureSettings() {}

  public static final ConfigEntry<List<String>> LISTENERS =
      ConfigEntry.builder("spark.wanshuffle.listeners", Text.commaSeparated("class names"))
          .section(Section.STEPS)
          .defaultValue("")
          .doc(
              """
              Extra `io.wanshuffle.spark.coordinator.event.CoordinatorListener` classes to \
              instantiate on the driver, comma-separated (constructor `(SparkConf)` or \
              no-arg). The capture listener (`io.wanshuffle.spark.capture.CaptureListener`) is \
              always added when it is in the jar. An unloadable class stops start-up naming \
              this key.""")
          .build();

  public static final ConfigEntry<Optional<String>> CAPTURE_DIR =
      ConfigEntry.builder("spark.wanshuffle.capture.dir", Text.trimmed("path"))
          .section(Section.CAPTURE)
          .noDefault("unset")
          .blankIsUnset()
          .doc(
              """
              Folder for capture files, created if missing; unset = no files. On the driver's \
              file system. A folder that cannot be created or written stops start-up naming \
              this key.""")
          .build();

  public static final ConfigEntry<Boolean> CAPTURE_EVENTS =
      ConfigEntry.builder(
              "spark.wanshuffle.capture.events", Words.trueOrFalse().expecting("true or false"))
          .section(Section.CAPTURE)
          .defaultValue("true")
          .doc(
              """
              Post the capture's SparkListener events (`WanShuffleStepCompleted`, \
              `WanShuffleStageCaptured`, `WanShuffleLinkChanged`) on the driver's listener bus \
              ([capture.md](capture.md)).""")
          .build();

  public static final ConfigEntry<Boolean> CAPTURE_METRICS =
      ConfigEntry.builder(
              "spark.wanshuffle.capture.metrics", Words.trueOrFalse().expecting("true or false"))
          .section(Section.CAPTURE)
          .defaultValue("true")
          .doc(
              "Register the `wanShuffle` metrics source with Spark's metrics system"
                  + " ([capture.md](capture.md)).")
          .build();

  /**
   * @return this class's settings, in declaration order
   */
  static List<ConfigEntry<?>> entries() {
    return List.of(LISTENERS, CAPTURE_DIR, CAPTURE_EVENTS, CAPTURE_METRICS);
  }
}
