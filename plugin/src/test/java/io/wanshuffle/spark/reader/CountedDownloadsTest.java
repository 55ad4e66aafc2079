package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.network.buffer.ManagedBuffer;
import org.apache.spark.network.shuffle.DownloadFile;
import org.apache.spark.network.shuffle.DownloadFileWritableChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CountedDownloadsTest {
  @TempDir Path dir;

  @Test
  void aBlockWrittenToSparksFileIsCountedPieceByPieceAndReadBackWhole() throws Exception {
    SparkTempFiles spark = new SparkTempFiles(dir);
    List<Long> pieces = new ArrayList<>();
    CountedDownloads counted = new CountedDownloads(spark, pieces::add);
    DownloadFile file = counted.createTempFile(SparkTempFiles.CONF);
    assertEquals(spark.created.get(0).getAbsolutePath(), file.path(), "Spark's own temporary file");
    byte[] block = new byte[300_000];
    new Random(3).nextBytes(block);
    DownloadFileWritableChannel ch = file.openForWriting();
    ch.write(ByteBuffer.wrap(block, 0, 65_536));
    ch.write(ByteBuffer.wrap(block, 65_536, 100_000));
    assertEquals(List.of(65_536L, 100_000L), pieces, "each piece counted as it is written");
    ch.write(ByteBuffer.wrap(block, 165_536, block.length - 165_536));
    assertTrue(ch.isOpen());
    ManagedBuffer read = ch.closeAndRead();
    assertFalse(ch.isOpen());
    assertEquals(block.length, pieces.stream().mapToLong(Long::longValue).sum());
    assertArrayEquals(
        block, Files.readAllBytes(spark.created.get(0).toPath()), "the bytes went to Spark's file");
    ByteBuffer back = read.nioByteBuffer();
    byte[] got = new byte[back.remaining()];
    back.get(got);
    assertArrayEquals(block, got, "the task reads the block's bytes, in order");

    assertTrue(counted.registerTempFileToClean(file));
    assertSame(file, spark.toClean.get(0), "Spark cleans the file up when the task ends");
    assertTrue(spark.toClean.get(0).delete());
    assertFalse(spark.created.get(0).exists(), "deleting it deletes Spark's file");
  }
}
