package io.spanflight.smoke.demo;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** What the demo found in the profile files: totals, and the spans the CPU went to. */
final class DemoReport {
  private static final int TOP_SPANS = 5;
  private static final int TOP_FRAMES = 3;

  private final Path directory;
  private final int files;
  private final List<StackSample> samples;

  private DemoReport(Path directory, int files, List<StackSample> samples) {
    this.directory = directory;
    this.files = files;
    this.samples = samples;
  }

  /** Decodes every {@code *.binpb} file in {@code directory} as an ExportProfilesServiceRequest. */
  static DemoReport read(Path directory) throws IOException {
    List<Path> paths;
    try (Stream<Path> listing = Files.list(directory)) {
      paths = listing.filter(p -> p.getFileName().toString().endsWith(".binpb")).sorted().toList();
    }
    List<StackSample> samples = new ArrayList<>();
    for (Path path : paths) {
      try (InputStream in = Files.newInputStream(path)) {
        samples.addAll(CpuSamples.decode(ExportProfilesServiceRequest.parseFrom(in)));
      }
    }
    return new DemoReport(directory, paths.size(), samples);
  }

  long samples() {
    return samples.stream().mapToLong(StackSample::count).sum();
  }

  void print(PrintStream out) {
    long total = samples();
    long linked = samples.stream().filter(StackSample::isLinked).mapToLong(StackSample::count).sum();
    out.println();
    out.println("Profiles written to " + directory);
    out.printf("  files: %d   CPU samples: %d   linked to a span: %d (%.1f %%)%n",
        files, total, linked, total == 0 ? 0.0 : 100.0 * linked / total);

    Map<SpanLink, Map<String, Long>> framesBySpan = new HashMap<>();
    Map<SpanLink, Long> samplesBySpan = new HashMap<>();
    Map<String, Long> linkedFrames = new HashMap<>();
    for (StackSample sample : samples) {
      if (sample.isLinked()) {
        String frame = sample.leafApplicationFrame().orElse("(JDK code only)");
        samplesBySpan.merge(sample.link(), sample.count(), Long::sum);
        framesBySpan.computeIfAbsent(sample.link(), link -> new HashMap<>())
            .merge(frame, sample.count(), Long::sum);
        linkedFrames.merge(frame, sample.count(), Long::sum);
      }
    }
    if (samplesBySpan.isEmpty()) {
      return;
    }
    out.printf("  spans with samples: %d; where their CPU went (leaf-most application frames):%n",
        samplesBySpan.size());
    for (String frame : top(linkedFrames, TOP_FRAMES)) {
      out.printf("      %5d  %s%n", linkedFrames.get(frame), frame);
    }
    out.println("Top " + TOP_SPANS + " spans by CPU samples (leaf-most application frames):");
    for (SpanLink span : top(samplesBySpan, TOP_SPANS)) {
      out.printf("  %s  %d samples%n", span, samplesBySpan.get(span));
      Map<String, Long> frames = framesBySpan.get(span);
      for (String frame : top(frames, TOP_FRAMES)) {
        out.printf("      %5d  %s%n", frames.get(frame), frame);
      }
    }
  }

  private static <K extends Comparable<? super K>> List<K> top(Map<K, Long> counts, int n) {
    return counts.entrySet().stream()
        .sorted(Map.Entry.<K, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(n)
        .map(Map.Entry::getKey)
        .toList();
  }
}
