package io.wanshuffle.it.concurrent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;

/**
 * The ZooKeeper server's JVM on the testbed ({@link ZooKeeperServer} starts it): runs ZooKeeper's
 * {@link ZooKeeperServerMain} on a configuration file and prints {@value #READY} and the address
 * once a client can connect, so that the command knows it is up without reaching into the host's
 * network namespace.
 */
public final class ZooKeeperMain {
  /** What the server prints, followed by {@code host:port}, once it accepts connections. */
  static final String READY = "wan-shuffle: ZooKeeper ready on ";

  private ZooKeeperMain() {}

  /**
   * @param args the configuration file ({@code zoo.cfg}), the address and the port it serves
   * @throws Exception if the configuration does not parse or the server fails
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: ZooKeeperMain ZOO_CFG ADDRESS PORT");
    }
    ServerConfig config = new ServerConfig();
    config.parse(args[0]);
    String address = args[1];
    int port = Integer.parseInt(args[2]);
    Thread ready =
        new Thread(
            () -> {
              long deadline = System.currentTimeMillis() + 60_000;
              while (System.currentTimeMillis() < deadline) {
                try (Socket s = new Socket()) {
                  s.connect(new InetSocketAddress(address, port), 500);
                  System.out.println(READY + address + ":" + port);
                  System.out.flush();
                  return;
                } catch (IOException e) {
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException x) {
                    return;
                  }
                }
              }
            },
            "zookeeper-ready");
    ready.setDaemon(true);
    ready.start();
    new ZooKeeperServerMain().runFromConfig(config);
  }
}
