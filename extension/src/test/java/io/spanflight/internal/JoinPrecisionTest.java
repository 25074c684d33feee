package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join against a known schedule: one thread alternates between two spans every millisecond,
 * burning CPU in a method named after the active span. Everything is real except the agent: the
 * context-storage wrapper, the Java timeline, JFR, the join, the encoder and the file exporter.
 */
class JoinPrecisionTest {
  private static final SpanContext A = span("aaaaaaaaaaaaaaaa");
  private static final SpanContext B = span("bbbbbbbbbbbbbbbb");
  private static volatile long sink;

  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  private static SpanContext span(String spanId) {
    return SpanContext.create(
        "0123456789abcdef0123456789abcdef", spanId, TraceFlags.getSampled(), TraceState.getDefault());
  }

  @Test
  void samplesLandOnTheSpanThatWasActiveWhenTheyWereTaken() throws Exception {
    SpanflightConfig config =
        SpanflightConfig.read(
            DefaultConfigProperties.createFromMap(
                Map.of(
                    "otel.spanflight.exporter", "file",
                    "otel.spanflight.file.directory", dir.toString(),
                    "otel.spanflight.export.interval", "1s",
                    "otel.spanflight.cpu.period", "10ms")));
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());

    Context inA = Context.root().with(Span.wrap(A));
    Context inB = Context.root().with(Span.wrap(B));
    // switch every millisecond until enough samples were exported (about 6 s; longer on a busy machine)
    long deadline = System.nanoTime() + 90_000_000_000L;
    while (total(countSamples()) < 300 && System.nanoTime() < deadline) {
      long slice = System.nanoTime() + 1_000_000_000L;
      while (System.nanoTime() < slice) {
        try (Scope ignored = inA.makeCurrent()) {
          sink += burnInSpanA(1_000_000);
        }
        try (Scope ignored = inB.makeCurrent()) {
          sink += burnInSpanB(1_000_000);
        }
      }
    }
    spanflight.shutdown();

    long[] counts = countSamples(); // correct, wrong, unlinked
    long total = total(counts);
    System.out.printf(
        Locale.ROOT,
        "join precision: %d samples in burnInSpanA/B, %.2f %% on the active span, %d on the other, %d unlinked%n",
        total, 100.0 * counts[0] / total, counts[1], counts[2]);
    assertThat(total).as("samples inside the burn methods").isGreaterThan(200);
    assertThat(100.0 * counts[0] / total).isGreaterThanOrEqualTo(99.0);
  }

  private static long total(long[] counts) {
    return counts[0] + counts[1] + counts[2];
  }

  private long[] countSamples() throws Exception {
    long[] counts = new long[3];
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(p -> p.toString().endsWith(".binpb")).toList();
    }
    for (Path file : files) {
      ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
      ProfilesDictionary d = request.getDictionary();
      for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
        if (!d.getStringTable(profile.getSampleType().getTypeStrindex()).equals("samples")) {
          continue;
        }
        for (Sample sample : profile.getSamplesList()) {
          String burn = burnMethodOf(sample, d);
          if (burn == null) {
            continue;
          }
          ByteString expected = ByteString.copyFrom(burn.endsWith("A") ? A.getSpanIdBytes() : B.getSpanIdBytes());
          int n = sample.getTimestampsUnixNanoCount();
          if (sample.getLinkIndex() == 0) {
            counts[2] += n;
          } else if (d.getLinkTable(sample.getLinkIndex()).getSpanId().equals(expected)) {
            counts[0] += n;
          } else {
            counts[1] += n;
          }
        }
      }
    }
    return counts;
  }

  private static String burnMethodOf(Sample sample, ProfilesDictionary d) {
    for (int location : d.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      int function = d.getLocationTable(location).getLines(0).getFunctionIndex();
      String name = d.getStringTable(d.getFunctionTable(function).getNameStrindex());
      if (name.endsWith(".burnInSpanA") || name.endsWith(".burnInSpanB")) {
        return name;
      }
    }
    return null;
  }

  private static long burnInSpanA(long nanos) {
    return burn(nanos, 31);
  }

  private static long burnInSpanB(long nanos) {
    return burn(nanos, 37);
  }

  private static long burn(long nanos, long factor) {
    long deadline = System.nanoTime() + nanos;
    long acc = factor;
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < 200; i++) {
        acc = acc * factor + i;
      }
    }
    return acc;
  }
}
