package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.capture.SpanflightContextStorage;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.registry.LocalRoots;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real error of joined timestamps, on this JVM, against instants the application knows. One
 * thread alternates between spans A and B (about 0.4 ms each, burning CPU), and parks for a
 * microsecond right after each switch into a span and again right before it switches out, reading
 * {@link System#nanoTime()} just before each park. Each park is a {@code jdk.ThreadPark} event
 * (its timeout tells which park it was); its JFR start ticks, mapped through the engine's own clock
 * map (fitted from the engine's calibration events), are compared with the instant read before the
 * park. Everything is real except the agent: the context-storage wrapper, the bridge (native where
 * it loads), the drain, JFR, the clock map, the join and the file exporter. The exported park and
 * CPU samples must never link to the other span: a park starts a fraction of a microsecond after
 * its span's switch, so a map early by more than that would link it to the previous span.
 */
class SwitchInstantPrecisionTest {
  private static final SpanContext A = TwoSpans.A;
  private static final SpanContext B = TwoSpans.B;
  /** Park timeouts are this plus the park's number, so that each event says which park it was. */
  private static final long TIMEOUT_BASE = 1_000;
  private static final int MAX_PARKS = 40_000;
  private static final int MIN_PARKS = 2_000;
  private static volatile long sink;

  private final long[] parkedAt = new long[MAX_PARKS];
  private final long[] afterSwitch = new long[MAX_PARKS];
  private long earliest = Long.MAX_VALUE;

  @TempDir Path dir;

  @BeforeAll
  static void installBeforeTheStorageIsFirstUsed() {
    SpanflightContextStorage.install();
  }

  @Test
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  void joinedTimestampsAreWithinTheToleranceOfKnownInstantsAndNeverLinkTheOtherSpan() throws Exception {
    SpanflightConfig config =
        SpanflightConfig.read(
            DefaultConfigProperties.createFromMap(
                Map.of(
                    "otel.spanflight.exporter", "file",
                    "otel.spanflight.file.directory", dir.resolve("profiles").toString(),
                    "otel.spanflight.export.interval", "1s",
                    "otel.spanflight.cpu.period", "10ms",
                    "otel.spanflight.park.threshold", "0ms",
                    "otel.spanflight.jmx.enabled", "false")));
    Path parksFile = dir.resolve("parks.jfr");
    int parks;
    Spanflight spanflight = Spanflight.start(config, Resource.getDefault(), new LocalRoots());
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withoutStackTrace();
      recording.start();
      try {
        parks = alternate();
      } finally {
        spanflight.shutdown(); // the JFR consumer has ended: its clock map stays as last fitted
      }
      recording.stop();
      recording.dump(parksFile);
    }

    long[] errors = mapParks(spanflight.joiner().clock(), parksFile, Thread.currentThread().getId(), parks);
    long[] gaps = new long[parks / 2];
    for (int i = 0; i < gaps.length; i++) {
      gaps[i] = parkedAt[2 * i] - afterSwitch[2 * i];
    }
    Arrays.sort(gaps);
    long[] park = countSamples("park", ".parkInSpan");
    long[] cpu = countSamples("samples", ".burnInSpan");
    System.out.printf(
        Locale.ROOT,
        "switch-instant precision: %d parks mapped; |mapped JFR start - nanoTime before park|"
            + " p50 %d ns, p99 %d ns, max %d ns (tolerance %d ns); smallest signed difference %d ns (below 0: mapped before the instant);"
            + " a switch's end to its park's nanoTime p50 %d ns%n"
            + "  exported park samples: %d on the active span, %d on the other, %d unlinked;"
            + " CPU samples: %d on the active span, %d on the other, %d unlinked%n",
        errors.length, percentile(errors, 50), percentile(errors, 99), errors[errors.length - 1],
        JfrClock.JOIN_TOLERANCE_NANOS, earliest, percentile(gaps, 50),
        park[0], park[1], park[2], cpu[0], cpu[1], cpu[2]);

    assertThat(errors.length).as("parks found in the recording").isGreaterThanOrEqualTo(parks * 9 / 10);
    assertThat(percentile(errors, 99)).as("p99 mapping error, ns").isLessThan(JfrClock.JOIN_TOLERANCE_NANOS);
    assertThat(park[1]).as("park samples linked to the other span").isZero();
    assertThat(cpu[1]).as("CPU samples linked to the other span").isZero();
    assertThat(park[0]).as("park samples linked to their span").isGreaterThanOrEqualTo((park[0] + park[2]) * 9 / 10);
    assertThat(park[0]).isGreaterThanOrEqualTo(parks / 2);
  }

  /** Alternates A and B for at least 3 s and {@value #MIN_PARKS} parks; returns the parks made. */
  private int alternate() {
    Context inA = Context.root().with(Span.wrap(A));
    Context inB = Context.root().with(Span.wrap(B));
    long minimumEnd = System.nanoTime() + 3_000_000_000L;
    long deadline = System.nanoTime() + 60_000_000_000L;
    int n = 0;
    while ((System.nanoTime() < minimumEnd || n < MIN_PARKS) && n + 4 <= MAX_PARKS && System.nanoTime() < deadline) {
      try (Scope ignored = inA.makeCurrent()) {
        afterSwitch[n] = System.nanoTime();
        parkInSpanA(n++);
        sink += TwoSpans.burnInSpanA(400_000);
        parkInSpanA(n++);
      }
      try (Scope ignored = inB.makeCurrent()) {
        afterSwitch[n] = System.nanoTime();
        parkInSpanB(n++);
        sink += TwoSpans.burnInSpanB(400_000);
        parkInSpanB(n++);
      }
    }
    return n;
  }

  private void parkInSpanA(int n) {
    parkedAt[n] = System.nanoTime();
    LockSupport.parkNanos(TIMEOUT_BASE + n);
  }

  private void parkInSpanB(int n) {
    parkedAt[n] = System.nanoTime();
    LockSupport.parkNanos(TIMEOUT_BASE + n);
  }

  /**
   * |mapped start - nanoTime read before the park| of each of our parks in the file, sorted; the
   * smallest signed difference (below 0: mapped before the known instant) goes to {@link #earliest}.
   */
  private long[] mapParks(JfrClock clock, Path file, long threadId, int parks) throws Exception {
    long[] errors = new long[parks];
    int found = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (!e.getEventType().getName().equals("jdk.ThreadPark")
          || e.getThread() == null
          || e.getThread().getJavaThreadId() != threadId) {
        continue;
      }
      long n = e.getLong("timeout") - TIMEOUT_BASE; // nanoseconds; parks without a timeout have none
      if (n >= 0 && n < parks) {
        long signed = clock.toNanoTime(e.getLong("startTime")) - parkedAt[(int) n];
        earliest = Math.min(earliest, signed);
        errors[found++] = Math.abs(signed);
      }
    }
    long[] sorted = Arrays.copyOf(errors, found);
    Arrays.sort(sorted);
    return sorted;
  }

  private static long percentile(long[] sorted, int p) {
    return sorted.length == 0 ? Long.MAX_VALUE : sorted[Math.min(sorted.length - 1, sorted.length * p / 100)];
  }

  /** Samples of {@code type} in our methods named {@code method}A/B: on the right span, the other, none. */
  private long[] countSamples(String type, String method) throws Exception {
    return TwoSpans.countSamples(dir.resolve("profiles"), type, method);
  }
}
