package io.wanshuffle.it.cluster;

import io.wanshuffle.it.net.LoopbackTestbed;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.it.spark.SparkHome;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension handing one {@link SparkCluster} on a 2 + 2 host {@link LoopbackTestbed} to
 * every test class of the run ({@code @BeforeAll static void start(SparkCluster cluster)}): started
 * on first use with the Maven-built Spark home ({@link SparkHome#locate()}), run folder {@code
 * <wanshuffle.it.runDir>/cluster-<time>-<pid>}, kept in the root store and closed when the test
 * plan ends (the cluster's own teardown at JVM exit as a backstop). Each class starts its own
 * SparkSession (its own executors, driver in the test JVM on the control host) on it.
 */
final class SharedLoopbackCluster implements ParameterResolver {
  private static final class Holder implements ExtensionContext.Store.CloseableResource {
    final SparkCluster cluster;

    Holder() {
      String stamp =
          DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")
              .withZone(ZoneOffset.UTC)
              .format(Instant.now());
      Path runDir =
          Path.of(System.getProperty("wanshuffle.it.runDir", "target/it-runs"))
              .resolve("cluster-" + stamp + "-" + ProcessHandle.current().pid());
      cluster =
          SparkCluster.start(
              LoopbackTestbed.start(
                  new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0)),
              SparkHome.locate(),
              runDir,
              ClusterOptions.defaults());
    }

    @Override
    public void close() {
      cluster.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
    return p.getParameter().getType() == SparkCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext c) {
    return c.getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(
            Holder.class,
            k -> {
              try {
                return new Holder();
              } catch (RuntimeException e) {
                throw new IllegalStateException(
                    "loopback cluster did not start: " + e.getMessage(), e);
              }
            },
            Holder.class)
        .cluster;
  }
}
