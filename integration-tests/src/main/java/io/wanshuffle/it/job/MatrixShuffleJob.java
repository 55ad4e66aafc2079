package io.wanshuffle.it.job;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * A shuffle whose per-(map host, reduce host) bytes follow a given traffic matrix: the trace replay
 * and the synthetic patterns of the end-to-end benchmark (uniform, Zipf-skewed, fair-sharing-poor),
 * and shuffles between all hosts of both clusters (the map and reduce host lists may be any hosts,
 * the same ones included).
 *
 * <p>Map task t runs on map host {@code t % nA} and emits, for every reduce partition p (pinned to
 * reduce host {@code p % nB}), records of pseudo-random (incompressible) bytes totalling {@code
 * matrix[host(t)][host(p)] / (map tasks on that host) / (reduce partitions on that host)}. Record
 * content is a function of (t, p, record index), so every run produces the same records. Each
 * reduce task answers its record count, byte count and the sum of the records' CRC32C: equal
 * answers mean every record arrived once.
 */
final class MatrixShuffleJob {
  private MatrixShuffleJob() {}

  /**
   * @param jsc driver
   * @param matrix bytes from map host i to reduce host j, {@code [aHosts][bHosts]}, non-negative
   * @param recordBytes value size of one record (the last record of a cell may be shorter)
   * @param mapParts map tasks (at least one per map host)
   * @param reduceParts reduce partitions (at least one per reduce host)
   * @param aHosts the map hosts (cluster A's, or every host)
   * @param bHosts the reduce hosts (cluster B's, or every host)
   * @return per reduce partition one line {@code partition|records|bytes|crcsum}
   */
  static JavaRDD<String> build(
      JavaSparkContext jsc,
      double[][] matrix,
      int recordBytes,
      int mapParts,
      int reduceParts,
      List<String> aHosts,
      List<String> bHosts) {
    int nA = aHosts.size();
    int nB = bHosts.size();
    if (matrix.length != nA || matrix[0].length != nB) {
      throw new IllegalArgumentException(
          "traffic matrix is "
              + matrix.length
              + " x "
              + matrix[0].length
              + " but the job has "
              + nA
              + " map hosts x "
              + nB
              + " reduce hosts");
    }
    if (mapParts < nA || reduceParts < nB) {
      throw new IllegalArgumentException(
          "need at least one map task per map host and one reduce task per reduce host");
    }
    double[][] m = matrix;
    JavaPairRDD<Integer, byte[]> data =
        Placement.seeds(jsc, mapParts, aHosts)
            .flatMapToPair(
                t -> {
                  int i = t % nA;
                  int mapsOnHost = (mapParts - i + nA - 1) / nA;
                  return new Iterator<Tuple2<Integer, byte[]>>() {
                    int p = -1;
                    long left;
                    int seq;
                    SplittableRandom rnd;

                    private void advance() {
                      while (left <= 0 && p + 1 < reduceParts) {
                        p++;
                        int j = p % nB;
                        int partsOnHost = (reduceParts - j + nB - 1) / nB;
                        left = Math.round(m[i][j] / mapsOnHost / partsOnHost);
                        seq = 0;
                        rnd = new SplittableRandom(((long) t << 32) ^ p * 0x9E3779B97F4A7C15L);
                      }
                    }

                    @Override
                    public boolean hasNext() {
                      advance();
                      return left > 0;
                    }

                    @Override
                    public Tuple2<Integer, byte[]> next() {
                      if (!hasNext()) {
                        throw new NoSuchElementException();
                      }
                      byte[] v = new byte[(int) Math.min(recordBytes, left)];
                      for (int k = 0; k < v.length; k += 8) {
                        long r = rnd.nextLong();
                        for (int b = 0; b < 8 && k + b < v.length; b++) {
                          v[k + b] = (byte) (r >>> (8 * b));
                        }
                      }
                      left -= v.length;
                      seq++;
                      return new Tuple2<>(p, v);
                    }
                  };
                });
    JavaPairRDD<Integer, byte[]> shuffled = data.partitionBy(new HashPartitioner(reduceParts));
    return Placement.seeds(jsc, reduceParts, bHosts)
        .zipPartitions(
            shuffled,
            (pin, it) -> {
              int part = pin.next();
              long n = 0;
              long bytes = 0;
              long crcSum = 0;
              CRC32C crc = new CRC32C();
              while (it.hasNext()) {
                Tuple2<Integer, byte[]> r = it.next();
                if (r._1() != part) {
                  throw new IllegalStateException(
                      "record for partition " + r._1() + " arrived in partition " + part);
                }
                crc.reset();
                crc.update(r._2());
                crcSum += crc.getValue();
                n++;
                bytes += r._2().length;
              }
              List<String> out = new ArrayList<>(1);
              out.add(String.format("%05d|%d|%d|%d", part, n, bytes, crcSum));
              return out.iterator();
            });
  }
}
