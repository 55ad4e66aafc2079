package io.wanshuffle.spark.reader;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.network.shuffle.DownloadFile;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.shuffle.SimpleDownloadFile;
import org.apache.spark.network.util.MapConfigProvider;
import org.apache.spark.network.util.TransportConf;

/**
 * Spark's side of a fetch to disk, as its fetch iterator does it: temporary files in a folder, kept
 * for clean-up.
 */
final class SparkTempFiles implements DownloadFileManager {
  /** A transport configuration with Spark's defaults. */
  static final TransportConf CONF = new TransportConf("shuffle", MapConfigProvider.EMPTY);

  final List<DownloadFile> toClean = new ArrayList<>();
  final List<File> created = new ArrayList<>();
  private final Path dir;

  /**
   * @param dir folder for the files
   */
  SparkTempFiles(Path dir) {
    this.dir = dir;
  }

  @Override
  public DownloadFile createTempFile(TransportConf conf) {
    File f = dir.resolve("block-" + created.size()).toFile();
    created.add(f);
    return new SimpleDownloadFile(f, conf);
  }

  @Override
  public boolean registerTempFileToClean(DownloadFile file) {
    toClean.add(file);
    return true;
  }
}
