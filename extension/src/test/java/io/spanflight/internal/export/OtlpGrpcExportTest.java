package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesPartialSuccess;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import io.opentelemetry.proto.collector.profiles.v1development.ProfilesServiceGrpc;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * OTLP/gRPC export through the OkHttp gRPC sender the agent carries, against a grpc-java server
 * on 127.0.0.1 misbehaving in each way a collector can. Every case checks delivered + dropped =
 * produced exactly and the queue bound.
 */
class OtlpGrpcExportTest {

  private final List<ExportProfilesServiceRequest> received = new CopyOnWriteArrayList<>();
  private final AtomicReference<BiConsumer<ExportProfilesServiceRequest, StreamObserver<ExportProfilesServiceResponse>>>
      behaviour = new AtomicReference<>(OtlpGrpcExportTest::accept);
  private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor();
  private Server server;

  private static void accept(ExportProfilesServiceRequest request, StreamObserver<ExportProfilesServiceResponse> out) {
    out.onNext(ExportProfilesServiceResponse.getDefaultInstance());
    out.onCompleted();
  }

  private static BiConsumer<ExportProfilesServiceRequest, StreamObserver<ExportProfilesServiceResponse>> fail(Status status) {
    return (request, out) -> out.onError(status.asRuntimeException());
  }

  private int startServer(int port) {
    server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
        .addService(new ProfilesServiceGrpc.ProfilesServiceImplBase() {
          @Override
          public void export(ExportProfilesServiceRequest request, StreamObserver<ExportProfilesServiceResponse> out) {
            received.add(request);
            behaviour.get().accept(request, out);
          }
        })
        .build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return server.getPort();
  }

  @AfterEach
  void stop() throws InterruptedException {
    delays.shutdownNow();
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private static Map<String, String> grpcTo(int port, String timeout) {
    return Map.of(
        "otel.exporter.otlp.protocol", "grpc",
        "otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port,
        "otel.exporter.otlp.timeout", timeout);
  }

  private List<Integer> receivedNumbers() {
    return received.stream()
        .map(r -> ExportHarness.numberOf(r.toByteArray()))
        .distinct()
        .sorted()
        .collect(Collectors.toList());
  }

  @Test
  void collectorDownAtStartThenUp_newestRequestsDeliveredOldestDroppedAsQueueFull() {
    int port = ExportHarness.freePort();
    try (ExportHarness export = ExportHarness.start(grpcTo(port, "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("grpc down-then-up", 10, 3, () -> startServer(port));
      assertThat(stats.delivered()).isEqualTo(4);
      assertThat(stats.droppedQueueFull()).isEqualTo(6);
      assertThat(receivedNumbers()).hasSize(4).contains(7, 8, 9);
    }
  }

  @Test
  void unavailable_retriedUntilAccepted() {
    behaviour.set(fail(Status.UNAVAILABLE.withDescription("warming up")));
    try (ExportHarness export = ExportHarness.start(grpcTo(startServer(0), "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("grpc UNAVAILABLE", 6, 3, () -> behaviour.set(OtlpGrpcExportTest::accept));
      assertThat(stats.delivered()).isEqualTo(4);
      assertThat(stats.droppedQueueFull()).isEqualTo(2);
      assertThat(export.logMessages()).anyMatch(m -> m.contains("gRPC UNAVAILABLE warming up"));
    }
  }

  @Test
  void resourceExhausted_retriedUntilAccepted() {
    behaviour.set(fail(Status.RESOURCE_EXHAUSTED.withDescription("rate limited")));
    try (ExportHarness export = ExportHarness.start(grpcTo(startServer(0), "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("grpc RESOURCE_EXHAUSTED", 3, 2, () -> behaviour.set(OtlpGrpcExportTest::accept));
      assertThat(stats.delivered()).isEqualTo(3);
      assertThat(stats.dropped()).isZero();
    }
  }

  @Test
  void responsesSlowerThanTheTimeout_retriedUntilTheCollectorIsFastAgain() {
    behaviour.set((request, out) -> delays.schedule(() -> accept(request, out), 3, TimeUnit.SECONDS));
    try (ExportHarness export = ExportHarness.start(grpcTo(startServer(0), "300ms"), 4)) {
      DeliveryStats stats = export.failThenRecover("grpc slow", 3, 2, () -> behaviour.set(OtlpGrpcExportTest::accept));
      assertThat(stats.delivered()).isEqualTo(3);
      assertThat(stats.dropped()).isZero();
    }
  }

  @Test
  void connectionResetMidRequest_retriedUntilARealCollectorAnswers() throws Exception {
    int port = ExportHarness.freePort();
    try (Resetter resetter = new Resetter(port);
        ExportHarness export = ExportHarness.start(grpcTo(port, "1s"), 4)) {
      DeliveryStats stats = export.failThenRecover("grpc reset", 3, 2, () -> {
        assertThat(resetter.resets()).isPositive();
        resetter.close();
        startServer(port);
      });
      assertThat(stats.delivered()).isEqualTo(3);
      assertThat(stats.dropped()).isZero();
      assertThat(receivedNumbers()).containsExactly(0, 1, 2);
    }
  }

  @Test
  void partialSuccess_deliveredAndLoggedWithTheRejectedCount() {
    behaviour.set((request, out) -> {
      out.onNext(ExportProfilesServiceResponse.newBuilder()
          .setPartialSuccess(ExportProfilesPartialSuccess.newBuilder()
              .setRejectedProfiles(1).setErrorMessage("unknown sample type"))
          .build());
      out.onCompleted();
    });
    try (ExportHarness export = ExportHarness.start(grpcTo(startServer(0), "1s"), 4)) {
      DeliveryStats stats = export.produceAndSettle("grpc partial success", 2);
      assertThat(stats.delivered()).isEqualTo(2);
      assertThat(stats.rejectedProfiles()).isEqualTo(2);
      assertThat(export.logMessages())
          .anyMatch(m -> m.contains("the collector rejected 1 profiles: unknown sample type"));
    }
  }

  @Test
  void invalidArgument_droppedAsRefusedWithoutRetry() {
    behaviour.set(fail(Status.INVALID_ARGUMENT.withDescription("bad dictionary")));
    try (ExportHarness export = ExportHarness.start(grpcTo(startServer(0), "1s"), 4)) {
      DeliveryStats stats = export.produceAndSettle("grpc INVALID_ARGUMENT", 2);
      assertThat(stats.droppedRefused()).isEqualTo(2);
      assertThat(stats.retries()).isZero();
    }
  }

  @Test
  void gzipCompressedRequestsAreDecodedByGrpcJava() {
    startServer(0);
    Map<String, String> properties = Map.of(
        "otel.exporter.otlp.profiles.protocol", "grpc",
        "otel.exporter.otlp.profiles.endpoint", "http://127.0.0.1:" + server.getPort(),
        "otel.exporter.otlp.profiles.compression", "gzip");
    try (ExportHarness export = ExportHarness.start(properties, 4)) {
      assertThat(export.produceAndSettle("grpc gzip", 2).delivered()).isEqualTo(2);
      assertThat(receivedNumbers()).containsExactly(0, 1);
    }
  }

  /** Accepts connections on a port, reads a little of each, then resets it (RST, not FIN). */
  private static final class Resetter implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread thread;
    private volatile int resets;

    Resetter(int port) throws IOException {
      socket = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
      thread = new Thread(this::run, "resetter");
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      while (!socket.isClosed()) {
        try (Socket connection = socket.accept()) {
          InputStream in = connection.getInputStream();
          in.readNBytes(64); // the HTTP/2 preface and the start of the request
          connection.setSoLinger(true, 0);
          resets++;
        } catch (IOException e) {
          // closed, or the client gave up first: either way, next connection
        }
      }
    }

    int resets() {
      return resets;
    }

    @Override
    public void close() {
      try {
        socket.close();
        thread.join(5000);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
