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
 * The {@link DownloadFileManager} of a fetch request whose blocks Spark streams, with the bytes
 * counted as they are written: the reader then sees how far a flow has got while it is on the
 * network, not only when a block ends. The manager underneath is either Spark's own (a request
 * above {@code spark.network.maxRemoteBlockSizeFetchToMem}, whose blocks go to temporary files,
 * encrypted when {@code spark.io.encryption.enabled}, cleaned up by Spark) or {@link
 * StreamedBlocks} (blocks Spark would fetch whole into memory, streamed into memory instead);
 * files, clean-up and the buffers the task reads are that manager's.
 *
 * <p>Counted are the block bytes as they arrive from the network (before Spark encrypts them into a
 * file). Thread-safety: Spark writes each block from the network thread of its connection; {@code
 * progress} must accept calls from those threads.
 */
final class CountedDownloads implements DownloadFileManager {
  private final DownloadFileManager downloads;
  private final LongConsumer progress;

  /**
   * @param downloads the manager that receives the blocks: Spark's (its fetch iterator) or {@link
   *     StreamedBlocks}
   * @param progress told the bytes of each piece of a block as it is written
   */
  CountedDownloads(DownloadFileManager downloads, LongConsumer progress) {
    this.downloads = downloads;
    this.progress = progress;
  }

  @Override
  public DownloadFile createTempFile(TransportConf transportConf) {
    return new Counted(downloads.createTempFile(transportConf));
  }

  /** Registers the file with the manager underneath (Spark's deletes it when the task ends). */
  @Override
  public boolean registerTempFileToClean(DownloadFile file) {
    return downloads.registerTempFileToClean(file);
  }

  /** One file of the manager underneath; deleting it deletes that file. */
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
