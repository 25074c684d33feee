package io.spanflight.demo.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A slow upstream on a local socket, inside the demo JVM: for each line it reads it waits a fixed
 * delay, then answers one line of stock figures. {@code /report} calls it, so its requests spend
 * their time blocked in a socket read. Plain sockets: the agent creates no spans for it.
 */
final class WarehouseFeed implements AutoCloseable {
  private final ServerSocket server;
  private final ExecutorService connections;
  private final long delayMillis;

  private WarehouseFeed(ServerSocket server, long delayMillis) {
    this.server = server;
    this.delayMillis = delayMillis;
    this.connections = Executors.newCachedThreadPool(NamedThreads.daemon("warehouse-feed"));
  }

  static WarehouseFeed start(Duration delay) throws IOException {
    ServerSocket server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    WarehouseFeed feed = new WarehouseFeed(server, delay.toMillis());
    feed.connections.execute(feed::acceptLoop);
    return feed;
  }

  int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.execute(() -> serve(socket));
      } catch (IOException e) {
        if (!server.isClosed()) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  private void serve(Socket socket) {
    try (socket;
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
      OutputStream out = socket.getOutputStream();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Thread.sleep(delayMillis);
        out.write(("stock " + line + " " + Math.abs(line.hashCode() % 997) + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    } catch (IOException e) {
      // the client went away; nothing to clean up beyond the socket
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // closing at shutdown: nothing to do
    }
    connections.shutdownNow();
  }
}
