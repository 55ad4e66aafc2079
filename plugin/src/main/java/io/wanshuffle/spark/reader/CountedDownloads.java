package io.wanshuffle.spark.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.LongConsumer;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.DownloadFile;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.shuffle.DownloadFileWritableChannel;
import org.apache.spark.network.util.TransportConf;

/**
 * Spark's own {@link DownloadFileManager} of a fetch request whose blocks go to disk (a request above
 * {@code spark.network.maxRemoteBlockSizeFetchToMem}), with the bytes counted as they are written: the reader then
 * sees how far a flow of such blocks has got while it is on the network, as {@link StreamedBlocks} lets it for the
 * blocks Spark would fetch into memory. Everything else is Spark's: the temporary files (encrypted when
 * {@code spark.io.encryption.enabled}), their clean-up, the buffers the task reads.
 *
 * <p>Counted are the block bytes as they arrive from the network (before Spark encrypts them into the file).
 * Thread-safety: Spark writes each block from the network thread of its connection; {@code progress} must accept
 * calls from those threads.
 */
final class CountedDownloads implements DownloadFileManager {
  private final DownloadFileManager spark;
  private final LongConsumer progress;

  /**
   * @param spark the request's manager as Spark passed it (its fetch iterator)
   * @param progress told the bytes of each piece of a block as it is written
   */
  CountedDownloads(DownloadFileManager spark, LongConsumer progress) {
    this.spark = spark;
    this.progress = progress;
  }

  @Override
  public DownloadFile createTempFile(TransportConf transportConf) {
    return new Counted(spark.createTempFile(transportConf));
  }

  /** Registers the file with Spark's manager, which deletes it when the task ends. */
  @Override
  public boolean registerTempFileToClean(DownloadFile file) {
    return spark.registerTempFileToClean(file);
  }

  /** One of Spark's temporary files; deleting it deletes Spark's. */
  private final class Counted implements DownloadFile {
    private final DownloadFile file;

    Counted(DownloadFile file) {
      this.file = file;
    }

    @Override
    public boolean delete() {
      return file.delete();
    }

    @Override
    public DownloadFileWritableChannel openForWriting() throws IOException {
      DownloadFileWritableChannel channel = file.openForWriting();
      return new DownloadFileWritableChannel() {
        @Override
        public int write(ByteBuffer src) throws IOException {
          int n = channel.write(src);
          progress.accept(n);
          return n;
        }

        @Override
        public ManagedBuffer closeAndRead() throws IOException {
          return channel.closeAndRead();
        }

        @Override
        public boolean isOpen() {
          return channel.isOpen();
        }

        @Override
        public void close() throws IOException {
          channel.close();
        }
      };
    }

    @Override
    public String path() {
      return file.path();
    }
  }
}
