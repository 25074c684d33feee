package io.spanflight.benchmarks.overhead;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * A receiver on the loopback interface that accepts whatever the agents send (OTLP
 * http/protobuf traces, profiles and logs; Pyroscope's {@code /ingest}) and answers 200 with an
 * empty body (an empty protobuf message is a valid OTLP export response). It counts requests and
 * bytes per path, so the report can show that each arm really exported something.
 */
final class Sink implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;
  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> bytes = new ConcurrentHashMap<>();

  private Sink(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  static Sink start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    ExecutorService executor = Executors.newFixedThreadPool(2);
    Sink sink = new Sink(server, executor);
    server.createContext("/", sink::handle);
    server.setExecutor(executor);
    server.start();
    return sink;
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      long n = 0;
      byte[] buffer = new byte[16_384];
      try (InputStream in = exchange.getRequestBody()) {
        for (int r = in.read(buffer); r >= 0; r = in.read(buffer)) {
          n += r;
        }
      }
      String path = exchange.getRequestURI().getPath();
      requests.computeIfAbsent(path, p -> new LongAdder()).increment();
      bytes.computeIfAbsent(path, p -> new LongAdder()).add(n);
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
    }
  }

  /** Requests and bytes per path since the last call, e.g. {@code /v1/traces=12 req 340 KB}; resets. */
  synchronized Map<String, String> takeCounts() {
    Map<String, String> counts = new TreeMap<>();
    for (String path : requests.keySet()) {
      long r = requests.get(path).sumThenReset();
      long b = bytes.get(path).sumThenReset();
      if (r > 0) {
        counts.put(path, r + " req " + (b / 1024) + " KB");
      }
    }
    return counts;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
