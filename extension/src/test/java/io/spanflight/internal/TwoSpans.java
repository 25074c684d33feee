package io.spanflight.internal;

import com.google.protobuf.ByteString;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * For precision tests on a real engine: two spans A and B of one trace, CPU burnt in each by a
 * method whose name ends in A or B, and the count of exported samples in such methods by where
 * they link.
 */
final class TwoSpans {
  static final SpanContext A = span("aaaaaaaaaaaaaaaa");
  static final SpanContext B = span("bbbbbbbbbbbbbbbb");

  private TwoSpans() {}

  private static SpanContext span(String spanId) {
    return SpanContext.create(
        "0123456789abcdef0123456789abcdef", spanId, TraceFlags.getSampled(), TraceState.getDefault());
  }

  /**
   * Samples of {@code type} in the file exporter's {@code .binpb} files in {@code dir} whose stack
   * has a method named {@code method}A or {@code method}B: {on its span, on the other, unlinked}.
   */
  static long[] countSamples(Path dir, String type, String method) throws IOException {
    long[] counts = new long[3];
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(p -> p.toString().endsWith(".binpb")).toList();
    }
    for (Path file : files) {
      ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
      ProfilesDictionary d = request.getDictionary();
      for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
        if (!d.getStringTable(profile.getSampleType().getTypeStrindex()).equals(type)) {
          continue;
        }
        for (Sample sample : profile.getSamplesList()) {
          String name = methodIn(sample, d, method);
          if (name == null) {
            continue;
          }
          ByteString expected = ByteString.copyFrom(name.endsWith("A") ? A.getSpanIdBytes() : B.getSpanIdBytes());
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

  static long total(long[] counts) {
    return counts[0] + counts[1] + counts[2];
  }

  private static String methodIn(Sample sample, ProfilesDictionary d, String method) {
    for (int location : d.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
      int function = d.getLocationTable(location).getLines(0).getFunctionIndex();
      String name = d.getStringTable(d.getFunctionTable(function).getNameStrindex());
      if (name.endsWith(method + "A") || name.endsWith(method + "B")) {
        return name;
      }
    }
    return null;
  }

  static long burnInSpanA(long nanos) {
    return burn(nanos, 31);
  }

  static long burnInSpanB(long nanos) {
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
