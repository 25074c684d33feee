package io.spanflight.smoke.collector;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.collector.logs.v1.LogsServiceGrpc;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.MetricsServiceGrpc;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import io.opentelemetry.proto.collector.profiles.v1development.ProfilesServiceGrpc;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An in-process OTLP collector on 127.0.0.1, on two ports: OTLP/gRPC ({@link #endpoint()}) and
 * OTLP http/protobuf ({@link #httpEndpoint()}, paths {@code /v1/traces},
 * {@code /v1development/profiles}, {@code /v1/metrics}, {@code /v1/logs}; gzip bodies accepted).
 * It records every trace and profile request it receives, and for HTTP the raw profile bodies as
 * they were sent (after gzip), and answers every export with success.
 *
 * <p>Started with {@link #startForwarding}, it is a recording hop in front of another collector:
 * each trace and profiles request is forwarded unchanged (over HTTP the very bytes received, with
 * their Content-Encoding; over gRPC the same message, compressed as it arrived) to the same protocol
 * of the next collector, whose answer goes back to the sender; it is recorded only when the next
 * collector accepted it. Metrics and logs are recorded and answered here, not forwarded.
 *
 * <p>The HTTP side is an {@link OtlpHttpReceiver}; the gRPC services are here.
 *
 * <p>Every collector started is remembered until {@link #takeStarted()}, so that a test base can
 * check every request any test received.
 */
public final class OtlpCollector implements AutoCloseable {
  public static final String HTTP_PROFILES_PATH = "/v1development/profiles";
  private static final List<OtlpCollector> STARTED = new CopyOnWriteArrayList<>();

  private final List<ExportTraceServiceRequest> traceRequests = new CopyOnWriteArrayList<>();
  private final List<ExportMetricsServiceRequest> metricRequests = new CopyOnWriteArrayList<>();
  private final List<ExportProfilesServiceRequest> profileRequests = new CopyOnWriteArrayList<>();
  private final List<String> grpcProfileEncodings = new CopyOnWriteArrayList<>();
  private final List<List<String>> profileVersions = new CopyOnWriteArrayList<>();
  private final Object received = new Object();
  private final Server server;
  private final OtlpHttpReceiver http;
  private final Forwarder forwarder; // null: answers every export with success itself
  private int port; // kept, so that it can be named after close()

  private OtlpCollector(int grpcPort, Forwarder forwarder) {
    this.forwarder = forwarder;
    server = NettyServerBuilder
        .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), grpcPort))
        .maxInboundMessageSize(64 * 1024 * 1024)
        .addService(ServerInterceptors.intercept(traces(), Forwarder.REQUEST_ENCODING))
        .addService(ServerInterceptors.intercept(profiles(), Forwarder.REQUEST_ENCODING))
        .addService(metrics())
        .addService(logs())
        .build();
    http = new OtlpHttpReceiver(forwarder, request -> record(traceRequests, request),
        request -> record(metricRequests, request), request -> record(profileRequests, request),
        profileVersions::add);
  }

  /** Starts a collector on an ephemeral port. */
  public static OtlpCollector start() {
    return start(0);
  }

  /**
   * Starts a collector whose OTLP/gRPC port is {@code grpcPort} (0: ephemeral; HTTP is always on an
   * ephemeral port), e.g. to bring a collector back on the port an app already exports to.
   */
  public static OtlpCollector start(int grpcPort) {
    return start(grpcPort, null);
  }

  /**
   * Starts a recording hop on ephemeral ports that forwards traces and profiles to the collector
   * listening on {@code grpcTarget} ({@code host:port}) and {@code httpTarget} (base URL).
   */
  public static OtlpCollector startForwarding(String grpcTarget, String httpTarget) {
    return start(0, new Forwarder(grpcTarget, httpTarget));
  }

  /**
   * Starts a collector on an ephemeral port for what another sender passes on (a Collector's
   * exporter): not remembered for {@link #takeStarted()}, since what it receives was encoded by
   * that sender, not by Spanflight, and Spanflight's conformance rules do not apply to it.
   */
  public static OtlpCollector startBehindAnotherSender() {
    OtlpCollector collector = start(0, null);
    STARTED.remove(collector);
    return collector;
  }

  private static OtlpCollector start(int grpcPort, Forwarder forwarder) {
    OtlpCollector collector = new OtlpCollector(grpcPort, forwarder);
    try {
      collector.server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the OTLP collector on gRPC port " + grpcPort, e);
    }
    collector.port = collector.server.getPort();
    collector.http.start();
    STARTED.add(collector);
    return collector;
  }

  /** The collectors started since the last call (open or closed), oldest first. */
  public static List<OtlpCollector> takeStarted() {
    List<OtlpCollector> started = List.copyOf(STARTED);
    STARTED.removeAll(started);
    return started;
  }

  public int port() {
    return port;
  }

  /** The value for {@code otel.exporter.otlp.endpoint} with protocol {@code grpc}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /**
   * The base URL for {@code otel.exporter.otlp.endpoint} with protocol {@code http/protobuf}
   * (the exporters append {@code /v1/traces}, {@code /v1development/profiles}, ...).
   */
  public String httpEndpoint() {
    return "http://127.0.0.1:" + http.port();
  }

  /** The bodies of the profile requests received over HTTP, decompressed, byte for byte. */
  public List<byte[]> httpProfileBodies() {
    return http.profileBodies();
  }

  /** The Content-Encoding of each profile request received over HTTP ("identity" when none). */
  public List<String> httpProfileEncodings() {
    return http.profileEncodings();
  }

  /**
   * The {@link ProfilesVersionHeader} values of each profiles request that arrived, over either
   * protocol, accepted or not (an empty list: none sent).
   */
  public List<List<String>> profileVersionHeaders() {
    return List.copyOf(profileVersions);
  }

  /** The grpc-encoding of each profile request received over gRPC ("identity" when none). */
  public List<String> grpcProfileEncodings() {
    return List.copyOf(grpcProfileEncodings);
  }

  /** Every trace export request received so far, in arrival order. */
  public List<ExportTraceServiceRequest> traceRequests() {
    return List.copyOf(traceRequests);
  }

  /** Every metrics export request received so far (the agent's and Spanflight's own metrics). */
  public List<ExportMetricsServiceRequest> metricRequests() {
    return List.copyOf(metricRequests);
  }

  /** Every profiles export request received so far, in arrival order. */
  public List<ExportProfilesServiceRequest> profileRequests() {
    return List.copyOf(profileRequests);
  }

  /**
   * Waits until {@code condition} holds for this collector, re-checking whenever a request
   * arrives; returns whether it held before {@code timeout} passed.
   */
  public boolean await(Predicate<OtlpCollector> condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (received) {
      while (!condition.test(this)) {
        long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (remainingMillis <= 0) {
          return false;
        }
        received.wait(Math.min(remainingMillis, 200)); // woken by each request; 200 ms at most
      }
      return true;
    }
  }

  @Override
  public void close() {
    http.close();
    server.shutdown();
    if (forwarder != null) {
      forwarder.close();
    }
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  private <T> void record(List<T> list, T request) {
    list.add(request);
    synchronized (received) {
      received.notifyAll();
    }
  }

  /**
   * Answers a gRPC export: records {@code request} in {@code recorded} and answers {@code ok}; or,
   * in a hop, forwards it with {@code forward} and records it if the next collector accepted it.
   */
  private <Q, R> void answerOrForward(Q request, List<Q> recorded, R ok, Function<Q, R> forward,
      StreamObserver<R> response) {
    if (forwarder == null) {
      record(recorded, request);
      response.onNext(ok);
      response.onCompleted();
      return;
    }
    forwarder.forward(request, forward, response, () -> record(recorded, request));
  }

  private BindableService traces() {
    return new TraceServiceGrpc.TraceServiceImplBase() {
      @Override
      public void export(ExportTraceServiceRequest request,
          StreamObserver<ExportTraceServiceResponse> response) {
        answerOrForward(request, traceRequests, ExportTraceServiceResponse.getDefaultInstance(),
            forwarded -> forwarder.traces().export(forwarded), response);
      }
    };
  }

  private BindableService profiles() {
    return new ProfilesServiceGrpc.ProfilesServiceImplBase() {
      @Override
      public void export(ExportProfilesServiceRequest request,
          StreamObserver<ExportProfilesServiceResponse> response) {
        grpcProfileEncodings.add(Forwarder.requestEncoding());
        profileVersions.add(ProfilesVersionHeader.received());
        answerOrForward(request, profileRequests, ExportProfilesServiceResponse.getDefaultInstance(),
            forwarded -> forwarder.profiles().export(forwarded), response);
      }
    };
  }

  private BindableService metrics() {
    return new MetricsServiceGrpc.MetricsServiceImplBase() {
      @Override
      public void export(ExportMetricsServiceRequest request,
          StreamObserver<ExportMetricsServiceResponse> response) {
        record(metricRequests, request);
        response.onNext(ExportMetricsServiceResponse.getDefaultInstance());
        response.onCompleted();
      }
    };
  }

  private static BindableService logs() {
    return new LogsServiceGrpc.LogsServiceImplBase() {
      @Override
      public void export(ExportLogsServiceRequest request,
          StreamObserver<ExportLogsServiceResponse> response) {
        response.onNext(ExportLogsServiceResponse.getDefaultInstance());
        response.onCompleted();
      }
    };
  }
}
