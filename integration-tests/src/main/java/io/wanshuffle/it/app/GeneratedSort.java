package io.wanshuffle.it.app;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * A Spark application to try {@code wan-shuffle run-app} with: a sort of generated records in the
 * manner of TeraSort. Each map task generates its records (a random 8-byte key, a random value)
 * from a fixed seed, so the input is the same in every run; {@code sortByKey} range-partitions them
 * over the reduce partitions (one sampling job, then the shuffle: every map task sends to every
 * reduce partition, wherever Spark placed them). The answer, printed to stdout one line per reduce
 * partition ({@code partition records first-key last-key crc32c ordered|unordered}) and a last line
 * {@code sorted true|false}, depends only on the arguments: the same with any shuffle manager.
 *
 * <p>Arguments (all optional): records (default 1,000,000), map tasks = reduce partitions (default
 * 12), value bytes per record (default 92: 100-byte records with the key).
 */
public final class GeneratedSort {
  private GeneratedSort() {}

  /**
   * Runs the sort and prints its answer.
   *
   * @param args records, partitions, value bytes (each optional)
   * @throws IllegalArgumentException if an argument is not a positive integer
   */
  public static void main(String[] args) {
    long records = args.length > 0 ? positive(args[0], "records") : 1_000_000;
    int partitions = args.length > 1 ? (int) positive(args[1], "partitions") : 12;
    int valueBytes = args.length > 2 ? (int) positive(args[2], "value bytes") : 92;
    SparkConf conf = new SparkConf().setAppName("generated-sort");
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      List<Integer> slices = new ArrayList<>();
      for (int i = 0; i < partitions; i++) {
        slices.add(i);
      }
      JavaPairRDD<Long, byte[]> input =
          sc.parallelize(slices, partitions)
              .flatMapToPair(
                  slice -> {
                    long n = records / partitions + (slice < records % partitions ? 1 : 0);
                    SplittableRandom random = new SplittableRandom(0x5EEDL * 31 + slice);
                    List<Tuple2<Long, byte[]>> out = new ArrayList<>((int) n);
                    for (long r = 0; r < n; r++) {
                      byte[] value = new byte[valueBytes];
                      random.nextBytes(value);
                      out.add(new Tuple2<>(random.nextLong(), value));
                    }
                    return out.iterator();
                  });
      List<String> lines =
          input
              .sortByKey(true, partitions)
              .mapPartitionsWithIndex((index, it) -> List.of(summary(index, it)).iterator(), true)
              .collect();
      boolean sorted = true;
      long previousLast = Long.MIN_VALUE;
      for (String line : lines) {
        System.out.println(line);
        String[] f = line.split(" ");
        sorted &= f[5].equals("ordered");
        if (!f[1].equals("0")) {
          sorted &= Long.parseLong(f[2]) >= previousLast;
          previousLast = Long.parseLong(f[3]);
        }
      }
      System.out.println("sorted " + sorted);
    }
  }

  private static String summary(int index, Iterator<Tuple2<Long, byte[]>> it) {
    CRC32C crc = new CRC32C();
    ByteBuffer key = ByteBuffer.allocate(Long.BYTES);
    long count = 0;
    long first = 0;
    long last = 0;
    boolean inOrder = true;
    while (it.hasNext()) {
      Tuple2<Long, byte[]> r = it.next();
      long k = r._1();
      if (count == 0) {
        first = k;
      } else {
        inOrder &= k >= last;
      }
      last = k;
      count++;
      crc.update(key.clear().putLong(k).flip());
      crc.update(r._2());
    }
    return index
        + " "
        + count
        + " "
        + first
        + " "
        + last
        + " "
        + Long.toHexString(crc.getValue())
        + " "
        + (inOrder ? "ordered" : "unordered");
  }

  private static long positive(String s, String what) {
    try {
      long v = Long.parseLong(s);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + " must be a positive integer, got '" + s + "'");
  }
}
