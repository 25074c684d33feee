package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ProfilesServiceGrpc;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.collector.ProfilesVersionHeader;
import io.spanflight.smoke.collector.RealCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.LoadDriver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP Profiles development version header ({@code otlp-profiles-development-version}) against
 * our Collector build (v0.165, whose receiver checks it since v0.163). The app exports over gRPC and
 * over http/protobuf through a recording hop (which passes the header on, as an intermediary must)
 * to the Collector: every profiles request carries it exactly once with the value {@code 1}, and
 * the Collector accepts them. Then one of those requests, sent to the Collector directly, shows the
 * Collector does check: without the header or with {@code 1} it is accepted; with {@code 2},
 * {@code 01}, an empty value, {@code 1,1} or the header twice it is refused (HTTP 400, gRPC
 * INVALID_ARGUMENT).
 */
class ProfilesVersionSmokeTest extends SmokeTestBase {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  @TempDir
  Path temp;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void weSendVersionOneAndTheCollectorAcceptsIt_malformedOrRepeatedIsRefused() throws Exception {
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = RealCollector.start(CollectorRoundTripSmokeTest.REPO,
            List.of(CollectorRoundTripSmokeTest.CONFIG), Map.of(
                "BACKEND_OTLP_GRPC_ENDPOINT", "127.0.0.1:" + backend.port(),
                "BACKEND_INSECURE", "true",
                "DEBUG_VERBOSITY", "basic"), temp.resolve("collector.log"));
        OtlpCollector hop = OtlpCollector.startForwarding(collector.grpcTarget(), collector.httpEndpoint())) {
      for (String protocol : List.of("grpc", "http/protobuf")) {
        AppJvm app = app(newestJdk(), hop, "profiles-version")
            .systemProperty("otel.exporter.otlp.profiles.protocol", protocol)
            .systemProperty("otel.exporter.otlp.profiles.endpoint", protocol.equals("grpc") ? hop.endpoint()
                : hop.httpEndpoint() + OtlpCollector.HTTP_PROFILES_PATH)
            .start();
        int before = hop.profileRequests().size();
        try (app) {
          new LoadDriver(app.baseUri()).send("/burn?ms=20", 20, 2);
          assertThat(hop.await(c -> c.profileRequests().size() > before, Duration.ofSeconds(30)))
              .as(withLog(app, protocol + ": a profiles request accepted by the Collector; " + received(hop)
                  + "\nCollector log:\n" + collector.logTail(20))).isTrue();
        }
      }
      assertThat(hop.profileVersionHeaders()).as("the version header values of every profiles request we sent")
          .isNotEmpty().allMatch(values -> values.equals(List.of("1")));
      assertThat(hop.profileVersionHeaders()).as("every request accepted by the Collector")
          .hasSameSizeAs(hop.profileRequests());

      byte[] body = hop.httpProfileBodies().get(0);
      assertThat(httpStatus(collector, body)).as("HTTP, no header").isEqualTo(200);
      assertThat(httpStatus(collector, body, "1")).as("HTTP, 1").isEqualTo(200);
      for (List<String> refused : List.of(List.of("2"), List.of("01"), List.of(""), List.of("1,1"),
          List.of("1", "1"))) {
        assertThat(httpStatus(collector, body, refused.toArray(String[]::new))).as("HTTP, " + refused)
            .isEqualTo(400);
      }
      ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(body);
      ManagedChannel channel = NettyChannelBuilder.forTarget(collector.grpcTarget()).usePlaintext().build();
      try {
        assertThat(grpcStatus(channel, request)).as("gRPC, no metadata").isEqualTo(Status.Code.OK);
        assertThat(grpcStatus(channel, request, "1")).as("gRPC, 1").isEqualTo(Status.Code.OK);
        assertThat(grpcStatus(channel, request, "2")).as("gRPC, 2").isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(grpcStatus(channel, request, "1", "1")).as("gRPC, 1 twice").isEqualTo(Status.Code.INVALID_ARGUMENT);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static int httpStatus(RealCollector collector, byte[] body, String... versions) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create(collector.httpEndpoint() + OtlpCollector.HTTP_PROFILES_PATH))
        .timeout(TIMEOUT).header("Content-Type", "application/x-protobuf")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (String version : versions) {
      request.header(ProfilesVersionHeader.NAME, version);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static Status.Code grpcStatus(ManagedChannel channel, ExportProfilesServiceRequest request,
      String... versions) {
    Metadata metadata = new Metadata();
    Metadata.Key<String> key = Metadata.Key.of(ProfilesVersionHeader.NAME, Metadata.ASCII_STRING_MARSHALLER);
    for (String version : versions) {
      metadata.put(key, version);
    }
    StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class, () ->
        ProfilesServiceGrpc.newBlockingStub(channel).withDeadlineAfter(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(metadata)).export(request));
    return refused == null ? Status.Code.OK : refused.getStatus().getCode();
  }
}
