package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code otel.spanflight.raw.payload=true}: each request carries the raw JFR data, readable by JFR. */
class RawPayloadTest {
  private static volatile long sink;

  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  @Test
  void theFirstProfileCarriesAJfrRecordingOfTheInterval() throws Exception {
    Path out = Files.createDirectories(dir.resolve("profiles"));
    SpanflightConfig config =
        SpanflightConfig.read(
            DefaultConfigProperties.createFromMap(
                Map.of(
                    "otel.spanflight.exporter", "file",
                    "otel.spanflight.file.directory", out.toString(),
                    "otel.spanflight.export.interval", "1s",
                    "otel.spanflight.raw.payload", "true",
                    // the execution sampler on every JDK: its events are what the payload is checked for
                    "otel.spanflight.cpu.enabled", "true",
                    "otel.spanflight.cputime.enabled", "false")));
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());
    // burn CPU until an interval with a payload was written (a few seconds; longer on a busy machine)
    long deadline = System.nanoTime() + 60_000_000_000L;
    List<Profile> withPayload = new ArrayList<>();
    while (withPayload.isEmpty() && System.nanoTime() < deadline) {
      long slice = System.nanoTime() + 1_000_000_000L;
      while (System.nanoTime() < slice) {
        for (int i = 0; i < 100_000; i++) {
          sink += i * 31L;
        }
      }
      withPayload = firstProfilesWithPayload(out);
    }
    spanflight.shutdown();
    assertThat(withPayload).as("requests with a raw payload").isNotEmpty();
    Profile first = withPayload.get(0);
    assertThat(first.getOriginalPayloadFormat()).isEqualTo("jfr");
    Path jfr = dir.resolve("payload.jfr");
    Files.write(jfr, first.getOriginalPayload().toByteArray());
    List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
    assertThat(events).extracting(e -> e.getEventType().getName()).contains("jdk.ExecutionSample");
  }

  /** The first profile of every request written so far that carries a raw payload. */
  private static List<Profile> firstProfilesWithPayload(Path out) throws Exception {
    List<Profile> withPayload = new ArrayList<>();
    try (Stream<Path> files = Files.list(out)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".binpb")).toList()) {
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        List<Profile> profiles = request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList();
        assertThat(profiles.subList(1, profiles.size())).allMatch(p -> p.getOriginalPayload().isEmpty());
        if (!profiles.get(0).getOriginalPayload().isEmpty()) {
          withPayload.add(profiles.get(0));
        }
      }
    }
    return withPayload;
  }
}
