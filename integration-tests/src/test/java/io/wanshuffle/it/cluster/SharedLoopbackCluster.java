package io.wanshuffle.it.cluster;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension handing one 2 + 2 node {@link LoopbackCluster} to every test class of the run
 * ({@code @BeforeAll static void start(LoopbackCluster cluster)}): started on first use, kept in
 * the root store and closed when the test plan ends (JVM shutdown hook as a backstop). Each class
 * starts its own SparkSession (its own executors) on it.
 */
final class SharedLoopbackCluster implements ParameterResolver {
  private static final class Holder implements ExtensionContext.Store.CloseableResource {
    final LoopbackCluster cluster;

    Holder() throws Exception {
      cluster = LoopbackCluster.start(ClusterSpec.twoClusters(2, 2));
    }

    @Override
    public void close() {
      cluster.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
    return p.getParameter().getType() == LoopbackCluster.class;
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
              } catch (Exception e) {
                throw new IllegalStateException(
                    "loopback cluster did not start: " + e.getMessage(), e);
              }
            },
            Holder.class)
        .cluster;
  }
}
