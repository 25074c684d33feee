package io.spanflight.smoke.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.opentelemetry.proto.collector.profiles.v1development.ProfilesServiceGrpc;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.TraceServiceGrpc;
import io.spanflight.smoke.profiles.SampleRequests;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OtlpCollectorTest {

  @Test
  void recordsTraceAndProfileRequests() throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      assertThat(collector.endpoint()).isEqualTo("http://127.0.0.1:" + collector.port());
      ManagedChannel channel = Grpc.newChannelBuilderForAddress(
          "127.0.0.1", collector.port(), InsecureChannelCredentials.create()).build();
      try {
        ProfilesServiceGrpc.newBlockingStub(channel).export(SampleRequests.burnAndIdle());
        TraceServiceGrpc.newBlockingStub(channel).export(ExportTraceServiceRequest.getDefaultInstance());
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }

      assertThat(collector.await(c -> c.traceRequests().size() == 1, Duration.ofSeconds(5))).isTrue();
      assertThat(collector.profileRequests()).containsExactly(SampleRequests.burnAndIdle());
      assertThat(collector.await(c -> c.profileRequests().size() == 2, Duration.ofMillis(100)))
          .as("a condition that never holds times out").isFalse();
    }
  }
}
