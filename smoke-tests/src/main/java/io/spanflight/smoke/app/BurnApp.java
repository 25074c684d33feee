package io.spanflight.smoke.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.LongUnaryOperator;

/**
 * A tiny HTTP service with no dependencies, for the smoke tests.
 *
 * <p>It uses the JDK's {@code com.sun.net.httpserver}, for which the OpenTelemetry javaagent
 * creates a SERVER span per request, so CPU burnt in a handler runs inside that span.
 *
 * <ul>
 *   <li>{@code GET /burn?ms=50} spends about {@code ms} ms of CPU in {@link
 *       BurnWork#burnCpuInsideRequest(long)}
 *   <li>{@code GET /digest?ms=30} spends about {@code ms} ms of CPU in {@link
 *       BurnWork#digestInsideRequest(long)}
 *   <li>{@code /alloc}, {@code /lock}, {@code /wait}, {@code /park}, {@code /socket}, {@code
 *       /file}, {@code /traced}: one JFR signal each, see {@link SignalWork}
 *   <li>{@code /tenant-a}, {@code /tenant-b}: CPU on a thread pool under a user-defined context,
 *       see {@link UserContextWork}
 *   <li>{@code /pid}: this JVM's process id (for jcmd and JMX)
 * </ul>
 *
 * <p>Usage: {@code BurnApp [port]} (default 0, an ephemeral port). Prints {@code LISTENING
 * <port>} on stdout once it accepts requests. It stops on SIGTERM.
 */
public final class BurnApp {
  static final int MAX_MILLIS = 10_000;

  private BurnApp() {}

  public static void main(String[] args) throws IOException {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext("/burn", exchange -> handle(exchange, 50, BurnWork::burnCpuInsideRequest));
    server.createContext("/digest", exchange -> handle(exchange, 30, BurnWork::digestInsideRequest));
    server.createContext("/alloc", exchange -> handle(exchange, 30, SignalWork::allocateInsideRequest));
    server.createContext("/lock", exchange -> handle(exchange, 30, SignalWork::contendInsideRequest));
    server.createContext("/wait", exchange -> handle(exchange, 30, SignalWork::waitInsideRequest));
    server.createContext("/park", exchange -> handle(exchange, 30, SignalWork::parkInsideRequest));
    server.createContext("/socket", exchange -> handle(exchange, 30, SignalWork::socketReadInsideRequest));
    server.createContext("/file", exchange -> handle(exchange, 30, SignalWork::fileReadInsideRequest));
    server.createContext("/traced", exchange -> handle(exchange, 30, SignalWork::tracedInsideRequest));
    server.createContext("/tenant-a", exchange -> handle(exchange, 50, UserContextWork::tenantA));
    server.createContext("/tenant-b", exchange -> handle(exchange, 30, UserContextWork::tenantB));
    server.createContext("/pid", exchange -> {
      byte[] body = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println("LISTENING " + server.getAddress().getPort());
    System.out.flush();
  }

  private static void handle(HttpExchange exchange, long defaultMillis, LongUnaryOperator work)
      throws IOException {
    try {
      long millis = millisParameter(exchange.getRequestURI().getRawQuery(), defaultMillis);
      long result = work.applyAsLong(millis);
      byte[] body = ("burned " + millis + " ms: " + result + "\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } finally {
      exchange.close();
    }
  }

  static long millisParameter(String query, long defaultMillis) {
    if (query == null) {
      return defaultMillis;
    }
    for (String pair : query.split("&")) {
      if (pair.startsWith("ms=")) {
        try {
          return Math.max(0, Math.min(MAX_MILLIS, Long.parseLong(pair.substring(3))));
        } catch (NumberFormatException e) {
          return defaultMillis;
        }
      }
    }
    return defaultMillis;
  }
}
