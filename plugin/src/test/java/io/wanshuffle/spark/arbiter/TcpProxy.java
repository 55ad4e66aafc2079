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
 * network does, while the server keeps its session until it expires; {@link #hold} delays what the
 * clients send.
 */
final class TcpProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** Whether what clients send is held back (not forwarded to the server until released). */
  private boolean holding;

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
                  pipe(in, out, true);
                  pipe(out, in, false);
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

  /**
   * Holds back what the clients send (the server's answers and watch events still pass), as a slow
   * or congested path to the server would: the client's requests reach it only once released.
   */
  synchronized void hold() {
    holding = true;
  }

  /** Forwards what was held back and what follows. */
  synchronized void release() {
    holding = false;
    notifyAll();
  }

  private synchronized void awaitRelease() throws InterruptedException {
    while (holding) {
      wait();
    }
  }

  private void pipe(Socket from, Socket to, boolean toServer) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                  if (toServer) {
                    awaitRelease();
                  }
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // cut
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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
    release();
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
