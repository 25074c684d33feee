package io.spanflight.smoke.collector;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * The OTLP http/protobuf side of an {@link OtlpCollector}: an HTTP server on an ephemeral port of
 * 127.0.0.1 that takes {@code /v1/traces}, {@code /v1development/profiles}, {@code /v1/metrics} and
 * {@code /v1/logs} (gzip bodies accepted), hands each trace, metrics and profiles request to the
 * collector's consumer for its kind, keeps the raw profile bodies (after gzip) with their
 * Content-Encoding, and answers with success: 400 for a body that does not parse, 404 for another
 * path. With a {@link Forwarder}, trace and profiles requests are instead passed on as received and
 * answered with the next collector's answer, and handed on only when it accepted them.
 */
final class OtlpHttpReceiver implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "otlp-collector-http");
    t.setDaemon(true);
    return t;
  });
  private final Forwarder forwarder; // null: answers every export with success itself
  private final Consumer<ExportTraceServiceRequest> traces;
  private final Consumer<ExportMetricsServiceRequest> metrics;
  private final Consumer<ExportProfilesServiceRequest> profiles;
  private final Consumer<List<String>> profileVersions;
  private final List<byte[]> profileBodies = new CopyOnWriteArrayList<>();
  private final List<String> profileEncodings = new CopyOnWriteArrayList<>();

  /** Opens the port (not yet serving: {@link #start()}); the consumers record what arrives. */
  OtlpHttpReceiver(Forwarder forwarder, Consumer<ExportTraceServiceRequest> traces,
      Consumer<ExportMetricsServiceRequest> metrics, Consumer<ExportProfilesServiceRequest> profiles,
      Consumer<List<String>> profileVersions) {
    this.forwarder = forwarder;
    this.profileVersions = profileVersions;
    this.traces = traces;
    this.metrics = metrics;
    this.profiles = profiles;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the OTLP/HTTP port", e);
    }
    server.createContext("/", this::handle);
    server.setExecutor(threads);
  }

  void start() {
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** The bodies of the profile requests received, decompressed, byte for byte. */
  List<byte[]> profileBodies() {
    return List.copyOf(profileBodies);
  }

  /** The Content-Encoding of each profile request received ("identity" when none). */
  List<String> profileEncodings() {
    return List.copyOf(profileEncodings);
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (forwarder != null && (path.equals(OtlpCollector.HTTP_PROFILES_PATH) || path.equals("/v1/traces"))) {
      forward(exchange, path);
      return;
    }
    try (exchange) {
      byte[] response;
      try {
        response = answer(exchange);
      } catch (IOException | RuntimeException e) { // not protobuf, or not the right message
        exchange.sendResponseHeaders(400, -1);
        return;
      }
      if (response == null) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, response.length == 0 ? -1 : response.length);
      if (response.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(response);
        }
      }
    }
  }

  /** Forwards the request's bytes to the next collector, answers with its answer, records it if accepted. */
  private void forward(HttpExchange exchange, String path) throws IOException {
    try (exchange) {
      String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
      byte[] sent;
      try (InputStream in = exchange.getRequestBody()) {
        sent = in.readAllBytes();
      }
      List<String> versions = versions(exchange, path);
      Forwarder.Answer answer = forwarder.post(path, sent, exchange.getRequestHeaders().getFirst("Content-Type"),
          encoding, versions);
      if (answer.status() / 100 == 2) {
        byte[] body = decoded(sent, encoding);
        if (path.equals(OtlpCollector.HTTP_PROFILES_PATH)) {
          recordProfiles(body, encoding);
        } else {
          traces.accept(ExportTraceServiceRequest.parseFrom(body));
        }
      }
      answer.contentType().ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
      answer.retryAfter().ifPresent(value -> exchange.getResponseHeaders().set("Retry-After", value));
      exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
      if (answer.body().length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(answer.body());
        }
      }
    }
  }

  /** Records the request and returns the response body; null for an unknown path. */
  private byte[] answer(HttpExchange exchange) throws IOException {
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = decoded(in.readAllBytes(), encoding);
    }
    versions(exchange, exchange.getRequestURI().getPath());
    switch (exchange.getRequestURI().getPath()) {
      case OtlpCollector.HTTP_PROFILES_PATH:
        recordProfiles(body, encoding);
        return ExportProfilesServiceResponse.getDefaultInstance().toByteArray();
      case "/v1/traces":
        traces.accept(ExportTraceServiceRequest.parseFrom(body));
        return ExportTraceServiceResponse.getDefaultInstance().toByteArray();
      case "/v1/metrics":
        metrics.accept(ExportMetricsServiceRequest.parseFrom(body));
        return ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
      case "/v1/logs":
        return new byte[0];
      default:
        return null;
    }
  }

  /** The profiles version headers of a request (empty: none), recorded for a profiles request. */
  private List<String> versions(HttpExchange exchange, String path) {
    List<String> values = exchange.getRequestHeaders().get(ProfilesVersionHeader.NAME);
    List<String> versions = values == null ? List.of() : List.copyOf(values);
    if (path.equals(OtlpCollector.HTTP_PROFILES_PATH)) {
      profileVersions.accept(versions);
    }
    return versions;
  }

  /** {@code body} as sent with Content-Encoding {@code encoding}, uncompressed. */
  private static byte[] decoded(byte[] body, String encoding) throws IOException {
    return "gzip".equalsIgnoreCase(encoding)
        ? new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes() : body;
  }

  /** Records a profiles request: the message, its uncompressed bytes and its encoding. */
  private void recordProfiles(byte[] body, String encoding) throws IOException {
    ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(body);
    profileBodies.add(body);
    profileEncodings.add(encoding == null ? "identity" : encoding);
    profiles.accept(request);
  }
}
