package io.spanflight.internal;

import io.spanflight.internal.jfr.StreamUse;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * Parts of Spanflight switched off for the overhead benchmark ({@code benchmarks/overhead}), so it
 * can tell what each part costs: the JVM system property {@value #PROPERTY}. Not a user setting:
 * anything but the default makes Spanflight useless, and says so in the log.
 *
 * <p>Not API: internal to Spanflight.
 */
enum BenchmarkArm {
  /** Spanflight: capture, stream, join, export. */
  FULL(true, StreamUse.JOIN),
  /** A plain JFR recording of exactly the events Spanflight enables, read by nobody; no capture. */
  JFR_ONLY(false, StreamUse.RECORD_ONLY),
  /** The span hooks, native records and timelines; no JFR recording, no export. */
  CAPTURE_ONLY(true, null),
  /** The same JFR events delivered to Spanflight's stream and dropped; no capture, no join. */
  STREAM_ONLY(false, StreamUse.DELIVER_ONLY),
  /** The same JFR events read by Spanflight's own chunk reader and dropped; no capture, no join. */
  READER_ONLY(false, StreamUse.OWN_READER);

  static final String PROPERTY = "spanflight.benchmark.arm";
  private static final Logger logger = Logger.getLogger("io.spanflight");

  /** Whether the span hooks write records and timelines. */
  final boolean capture;
  /** What our JFR stream does, or null for no JFR recording at all. */
  final StreamUse stream;

  BenchmarkArm(boolean capture, StreamUse stream) {
    this.capture = capture;
    this.stream = stream;
  }

  /** The arm named by the system property; {@link #FULL} when unset or not a known arm. */
  static BenchmarkArm fromSystemProperty() {
    String value = System.getProperty(PROPERTY);
    if (value == null || value.isBlank()) {
      return FULL;
    }
    String name = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (BenchmarkArm arm : values()) {
      if (arm.name().equals(name)) {
        if (arm != FULL) {
          logger.warning("Spanflight runs as the overhead benchmark's arm " + value.trim()
              + " (" + PROPERTY + "): it produces no profiles; not for production");
        }
        return arm;
      }
    }
    logger.warning("Spanflight ignores " + PROPERTY + "=" + value
        + ": expected full, jfr-only, capture-only, stream-only or reader-only; runs in full");
    return FULL;
  }
}
