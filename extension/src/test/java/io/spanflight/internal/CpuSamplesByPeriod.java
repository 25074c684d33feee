package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** For tests that run Spanflight in-process: CPU work to sample, a bounded wait, and the CPU samples the file exporter wrote, by period. */
final class CpuSamplesByPeriod {
  private static volatile long sink;

  private CpuSamplesByPeriod() {}

  /** Keeps this thread on the CPU for {@code millis}. */
  static void burn(long millis) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < end) {
      for (int i = 0; i < 100_000; i++) {
        sink += i * 31L;
      }
    }
  }

  /** Waits up to 20 s for {@code condition}; fails the test when it is not met by then. */
  static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not met within 20 s").isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(50); // poll interval
    }
  }

  /** The CPU samples in the {@code .binpb} files of {@code directory}, by the period of their profile (ns). */
  static Map<Long, Long> in(Path directory) throws IOException {
    Map<Long, Long> samplesByPeriod = new TreeMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".binpb")).toList()) {
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        ProfilesDictionary dictionary = request.getDictionary();
        for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
          if (dictionary.getStringTable(profile.getSampleType().getTypeStrindex()).equals("samples")) {
            long count = profile.getSamplesList().stream().mapToLong(s -> s.getTimestampsUnixNanoCount()).sum();
            samplesByPeriod.merge(profile.getPeriod(), count, Long::sum);
          }
        }
      }
    }
    return samplesByPeriod;
  }
}
