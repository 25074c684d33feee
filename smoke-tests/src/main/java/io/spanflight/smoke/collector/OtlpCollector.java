package io.spanflight.smoke.collector;

import io.grpc.BindableService;
import io.grpc.Server;
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
import java.util.function.Predicate;

/**
 * An in-process OTLP/gRPC collector on 127.0.0.1 that records every trace and profile request it
 * receives and answers every export (traces, profiles, metrics, logs) with success.
 */
public final class OtlpCollector implements AutoCloseable {
  private final List<ExportTraceServiceRequest> traceRequests = new CopyOnWriteArrayList<>();
  private final List<ExportProfilesServiceRequest> profileRequests = new CopyOnWriteArrayList<>();
  private final Object received = new Object();
  private final Server server;

  private OtlpCollector() {
    server = NettyServerBuilder
        .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .maxInboundMessageSize(64 * 1024 * 1024)
        .addService(traces())
        .addService(profiles())
        .addService(metrics())
        .addService(logs())
        .build();
  }

  /** Starts a collector on an ephemeral port. */
  public static OtlpCollector start() {
    OtlpCollector collector = new OtlpCollector();
    try {
      collector.server.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the OTLP collector", e);
    }
    return collector;
  }

  public int port() {
    return server.getPort();
  }

  /** The value for {@code otel.exporter.otlp.endpoint} with protocol {@code grpc}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /** Every trace export request received so far, in arrival order. */
  public List<ExportTraceServiceRequest> traceRequests() {
    return List.copyOf(traceRequests);
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
    server.shutdown();
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

  private BindableService traces() {
    return new TraceServiceGrpc.TraceServiceImplBase() {
      @Override
      public void export(ExportTraceServiceRequest request,
          StreamObserver<ExportTraceServiceResponse> response) {
        record(traceRequests, request);
        response.onNext(ExportTraceServiceResponse.getDefaultInstance());
        response.onCompleted();
      }
    };
  }

  private BindableService profiles() {
    return new ProfilesServiceGrpc.ProfilesServiceImplBase() {
      @Override
      public void export(ExportProfilesServiceRequest request,
          StreamObserver<ExportProfilesServiceResponse> response) {
        record(profileRequests, request);
        response.onNext(ExportProfilesServiceResponse.getDefaultInstance());
        response.onCompleted();
      }
    };
  }

  private static BindableService metrics() {
    return new MetricsServiceGrpc.MetricsServiceImplBase() {
      @Override
      public void export(ExportMetricsServiceRequest request,
          StreamObserver<ExportMetricsServiceResponse> response) {
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
