package io.spanflight.demo.run;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the demo service sends its traces: an OTLP/HTTP endpoint on the loopback interface that
 * answers every export with 200 and keeps nothing but counts, so that the demo needs no
 * collector and its spans (with their costs and inferred children) really leave the service.
 */
final class TraceSink implements AutoCloseable {
  private final HttpServer server;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  private TraceSink(HttpServer server) {
    this.server = server;
  }

  static TraceSink start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    TraceSink sink = new TraceSink(server);
    server.createContext("/v1/traces", exchange -> {
      try (InputStream body = exchange.getRequestBody()) {
        sink.bytes.addAndGet(body.transferTo(OutputStreamSink.INSTANCE));
      }
      sink.requests.incrementAndGet();
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    return sink;
  }

  /** The endpoint for {@code otel.exporter.otlp.traces.endpoint}. */
  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
  }

  long requests() {
    return requests.get();
  }

  long bytes() {
    return bytes.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** Discards what is written to it. */
  private static final class OutputStreamSink extends java.io.OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }
}
