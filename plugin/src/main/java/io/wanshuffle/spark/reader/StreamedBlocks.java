package io.wanshuffle.spark.reader;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.buffer.NettyManagedBuffer;
import org.apache.spark.network.shuffle.DownloadFile;
import org.apache.spark.network.shuffle.DownloadFileManager;
import org.apache.spark.network.shuffle.DownloadFileWritableChannel;
import org.apache.spark.network.util.TransportConf;

/**
 * Receives the blocks of one fetch request as streams, in memory.
 *
 * <p>Spark fetches a block in one of two ways: as a chunk (the default for blocks that fit in
 * memory: the block is handed over whole when its last byte has arrived) or as a stream into a
 * {@link DownloadFile} (for blocks above {@code spark.network.maxRemoteBlockSizeFetchToMem},
 * written to disk as they arrive). Passed as the {@link DownloadFileManager} of a request (counted
 * by {@link CountedDownloads}), this class makes Spark stream the blocks but keeps them in memory,
 * as a chunk fetch would: the reader then sees how far a flow of one large block has got while it
 * is on the network, not only when it ends. The blocks the task reads are the same bytes in the
 * same order.
 *
 * <p>Memory: a block's bytes are copied from the network buffers into heap pages as they arrive
 * (the first of {@value #FIRST_PAGE_BYTES} bytes, each next one as large as the block so far, at
 * most {@value #PAGE_BYTES}) and returned as one buffer over those pages (no further copy); a chunk
 * fetch holds the same bytes in Netty's (direct) buffers instead. Thread-safety: Spark writes each
 * block from the network thread of its connection.
 */
final class StreamedBlocks implements DownloadFileManager {
  /** Largest heap page a streamed block is copied into, bytes. */
  static final int PAGE_BYTES = 256 * 1024;

  /**
   * Smallest page, bytes: a block's first page; each next page is as large as the block so far, up
   * to the largest.
   */
  static final int FIRST_PAGE_BYTES = 8 * 1024;

  @Override
  public DownloadFile createTempFile(TransportConf transportConf) {
    return new InMemoryBlock();
  }

  /** Nothing to clean up: the block lives in memory until the task releases it. */
  @Override
  public boolean registerTempFileToClean(DownloadFile file) {
    return false;
  }

  /** One block received in memory. */
  private final class InMemoryBlock implements DownloadFile {
    @Override
    public boolean delete() {
      return true;
    }

    @Override
    public DownloadFileWritableChannel openForWriting() {
      return new Pages();
    }

    @Override
    public String path() {
      return "(in memory)";
    }
  }

  /** The bytes of one block, in pages, as they arrive. */
  private final class Pages implements DownloadFileWritableChannel {
    private final List<byte[]> pages = new ArrayList<>();
    private byte[] last;
    private int usedInLast;
    private long size;
    private boolean open = true;

    @Override
    public int write(ByteBuffer src) throws ClosedChannelException {
      if (!open) {
        throw new ClosedChannelException();
      }
      int n = src.remaining();
      while (src.hasRemaining()) {
        if (last == null || usedInLast == last.length) {
          // pages grow with the block: a small block wastes little, a large one is not split finely
          last = new byte[(int) Math.min(PAGE_BYTES, Math.max(FIRST_PAGE_BYTES, size))];
          pages.add(last);
          usedInLast = 0;
        }
        int len = Math.min(src.remaining(), last.length - usedInLast);
        src.get(last, usedInLast, len);
        usedInLast += len;
        size += len;
      }
      return n;
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      open = false;
    }

    @Override
    public ManagedBuffer closeAndRead() {
      close();
      ByteBuf[] parts = new ByteBuf[pages.size()];
      for (int i = 0; i < parts.length; i++) {
        byte[] page = pages.get(i);
        parts[i] =
            Unpooled.wrappedBuffer(page, 0, i == parts.length - 1 ? usedInLast : page.length);
      }
      ByteBuf all =
          parts.length == 0
              ? Unpooled.EMPTY_BUFFER
              : parts.length == 1 ? parts[0] : Unpooled.wrappedBuffer(parts.length, parts);
      return new NettyManagedBuffer(all);
    }
  }
}
