package io.spanflight.smoke.app.waits;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * An HTTP service whose requests wait in known ways for a known time, for the inferred-span smoke
 * tests (the OpenTelemetry javaagent makes a SERVER span per request of the JDK's {@code
 * com.sun.net.httpserver}). Each answers {@code thread=<Java thread id> waited=<nanoseconds>}, the
 * wait as the handler measured it around the blocking call.
 *
 * <ul>
 *   <li>{@code GET /lock?ms=150}: another thread holds a monitor for {@code ms}; the handler blocks
 *       entering it ({@code jdk.JavaMonitorEnter});
 *   <li>{@code GET /socket?ms=120}: the handler reads from a local server that answers after
 *       {@code ms} ({@code jdk.SocketRead}, peer 127.0.0.1 and the server's port);
 *   <li>{@code GET /traced?ms=100}: calls {@link WaitsWork#step}, which parks for {@code ms} (a
 *       traced method with a park inside it).
 * </ul>
 *
 * <p>Prints {@code LISTENING <port>} on stdout once it accepts requests, and {@code SLOW <port>}
 * for the slow socket server.
 */
public final class WaitsApp {
  private WaitsApp() {}

  public static void main(String[] args) throws IOException {
    ServerSocket slow = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread answering = new Thread(() -> answerSlowly(slow), "slow-socket-server");
    answering.setDaemon(true);
    answering.start();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/lock", exchange -> respond(exchange, blockOnMonitor(millis(exchange))));
    server.createContext("/socket", exchange -> respond(exchange, readSlowly(slow.getLocalPort(), millis(exchange))));
    server.createContext("/traced", exchange -> {
      long start = System.nanoTime();
      WaitsWork.step(millis(exchange));
      respond(exchange, System.nanoTime() - start);
    });
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.start();
    System.out.println("SLOW " + slow.getLocalPort());
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }

  private static long blockOnMonitor(long millis) {
    Object monitor = new Object();
    CountDownLatch held = new CountDownLatch(1);
    Thread holder = new Thread(() -> {
      synchronized (monitor) {
        held.countDown();
        WaitsWork.sleep(millis);
      }
    }, "lock-holder");
    holder.start();
    WaitsWork.await(held);
    long start = System.nanoTime();
    synchronized (monitor) {
      return System.nanoTime() - start;
    }
  }

  private static long readSlowly(int port, long millis) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.getOutputStream().write((millis + "\n").getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      long start = System.nanoTime();
      int read = socket.getInputStream().read();
      if (read < 0) {
        throw new IOException("the slow server closed without answering");
      }
      return System.nanoTime() - start;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Each connection: reads the delay in ms (one line), waits that long, answers one byte. */
  private static void answerSlowly(ServerSocket server) {
    while (true) {
      try {
        Socket socket = server.accept();
        Thread one = new Thread(() -> {
          try (socket) {
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
              line.append((char) c);
            }
            WaitsWork.sleep(Long.parseLong(line.toString().trim()));
            socket.getOutputStream().write('!');
          } catch (IOException | RuntimeException e) {
            e.printStackTrace();
          }
        }, "slow-answer");
        one.setDaemon(true);
        one.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private static long millis(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    return query != null && query.startsWith("ms=") ? Long.parseLong(query.substring(3)) : 100;
  }

  private static void respond(HttpExchange exchange, long waitedNanos) throws IOException {
    byte[] body = ("thread=" + Thread.currentThread().getId() + " waited=" + waitedNanos + "\n")
        .getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
