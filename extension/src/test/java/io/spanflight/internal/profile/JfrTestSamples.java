package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** Real JFR execution samples and span records for the encoder tests. */
final class JfrTestSamples {
  /** The leaf method of most samples, as the exported function name. */
  static final String BURN_FUNCTION = JfrTestSamples.class.getName() + ".burn";

  private JfrTestSamples() {}

  /** Records about 600 ms of execution samples at a 10 ms period while {@link #burn} runs. */
  static List<RecordedEvent> record(Path dir) throws Exception {
    Path file = dir.resolve("samples.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      recording.start();
      long end = System.nanoTime() + Duration.ofMillis(600).toNanos();
      long sink = 0;
      while (System.nanoTime() < end) {
        sink += burn(sink);
      }
      recording.stop();
      recording.dump(file);
      assertThat(sink).isNotEqualTo(42);
    }
    List<RecordedEvent> samples = RecordingFile.readAllEvents(file);
    assertThat(samples).as("JFR execution samples").hasSizeGreaterThan(5);
    return samples;
  }

  private static long burn(long seed) {
    long x = seed;
    for (int i = 0; i < 100_000; i++) {
      x = x * 31 + i;
    }
    return x;
  }

  /** The record of a sampled span with these ids. */
  static ContextRecord span(String traceId, String spanId) {
    ContextRegistry registry = new ContextRegistry(new TestBridge());
    return registry.resolve(
        registry.idOf(SpanContext.create(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault())));
  }
}
