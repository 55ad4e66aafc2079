package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.DownloadFile;
import org.apache.spark.network.shuffle.DownloadFileWritableChannel;
import org.junit.jupiter.api.Test;

class StreamedBlocksTest {

  /**
   * Pieces of any size, across page boundaries, come back as the block's bytes in order; progress
   * counts them.
   */
  @Test
  void aBlockWrittenInPiecesReadsBackWholeAndEveryPieceIsCounted() throws Exception {
    AtomicLong progress = new AtomicLong();
    CountedDownloads downloads = new CountedDownloads(new StreamedBlocks(), progress::addAndGet);
    DownloadFile file = downloads.createTempFile(null);
    DownloadFileWritableChannel ch = file.openForWriting();
    byte[] block = new byte[3 * StreamedBlocks.PAGE_BYTES + 12_345];
    new Random(1).nextBytes(block);
    Random sizes = new Random(2);
    for (int at = 0; at < block.length; ) {
      int n = Math.min(block.length - at, 1 + sizes.nextInt(100_000));
      ByteBuffer piece = ByteBuffer.wrap(block, at, n);
      assertEquals(n, ch.write(piece));
      assertFalse(piece.hasRemaining());
      at += n;
      assertEquals(at, progress.get());
    }
    ManagedBuffer buf = ch.closeAndRead();
    assertFalse(ch.isOpen());
    assertEquals(block.length, buf.size());
    assertEquals(ByteBuffer.wrap(block), buf.nioByteBuffer());
    try (InputStream in = buf.createInputStream()) {
      assertEquals(ByteBuffer.wrap(block), ByteBuffer.wrap(in.readAllBytes()));
    }
    assertFalse(
        downloads.registerTempFileToClean(file), "nothing on disk: Spark need not clean up");
    assertThrows(
        java.nio.channels.ClosedChannelException.class, () -> ch.write(ByteBuffer.allocate(1)));
  }

  @Test
  void anEmptyBlockReadsBackEmptyAndASmallOneStaysSmall() throws Exception {
    ManagedBuffer buf = new StreamedBlocks().createTempFile(null).openForWriting().closeAndRead();
    assertEquals(0, buf.size());
    DownloadFileWritableChannel ch = new StreamedBlocks().createTempFile(null).openForWriting();
    ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
    ManagedBuffer small = ch.closeAndRead();
    assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), small.nioByteBuffer());
    assertEquals(
        StreamedBlocks.FIRST_PAGE_BYTES,
        ((io.netty.buffer.ByteBuf) small.convertToNetty()).array().length,
        "a 3-byte block takes one first page, not a full one");
  }
}
