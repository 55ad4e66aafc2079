package io.wanshuffle.spark.arbiter;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay from a local port to a server, whose {@link #close} cuts every connection and refuses
 * new ones: a ZooKeeper client behind it loses its server the way a driver that dies or loses its
 * network does, while the server keeps its session until it expires.
 */
final class TcpProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  TcpProxy(int serverPort) throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept =
        new Thread(
            () -> {
              while (!listener.isClosed()) {
                try {
                  Socket in = listener.accept();
                  Socket out = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                  sockets.add(in);
                  sockets.add(out);
                  if (listener.isClosed()) {
                    closeQuietly(in);
                    closeQuietly(out);
                    break;
                  }
                  pipe(in, out);
                  pipe(out, in);
                } catch (IOException e) {
                  // closed, or the server refused: the client retries
                }
              }
            },
            "tcp-proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /**
   * @return {@code 127.0.0.1:<port>} of the relay
   */
  String connectString() {
    return InetAddress.getLoopbackAddress().getHostAddress() + ":" + listener.getLocalPort();
  }

  private void pipe(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // cut
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "tcp-proxy-pipe");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() {
    closeQuietly(listener);
    sockets.forEach(TcpProxy::closeQuietly);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
