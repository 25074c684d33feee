package io.spanflight.internal;

import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.StreamUse;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * Which parts of Spanflight run ({@value SpanflightConfig#DIAGNOSTIC_MODE}), one constant per value
 * of {@link SpanflightConfig#DIAGNOSTIC_MODES}: all of them ({@link #FULL}, the default), or one
 * part alone, to measure what that part costs in a service (the overhead harness, {@code
 * benchmarks/overhead}, measures each against the agent alone). Anything but {@link #FULL}
 * produces no profiles, and says so in the log.
 *
 * <p>Not API: internal to Spanflight.
 */
enum DiagnosticMode {
  /** Spanflight: capture, stream, join, export. */
  FULL(true, StreamUse.JOIN),
  /** A plain JFR recording of exactly the events Spanflight enables, read by nobody; no capture. */
  JFR_ONLY(false, StreamUse.RECORD_ONLY),
  /** The span hooks, native records and timelines; no JFR recording, no export. */
  CAPTURE_ONLY(true, null),
  /** The same JFR events delivered by the JDK's {@code RecordingStream} and dropped; no capture, no join. */
  STREAM_ONLY(false, StreamUse.DELIVER_ONLY),
  /** The same JFR events read by Spanflight's own chunk reader and dropped; no capture, no join. */
  READER_ONLY(false, StreamUse.OWN_READER);

  private static final Logger logger = Logger.getLogger("io.spanflight");

  /** Whether the span hooks write records and timelines. */
  final boolean capture;
  /** What our JFR stream does, or null for no JFR recording at all. */
  final StreamUse stream;

  DiagnosticMode(boolean capture, StreamUse stream) {
    this.capture = capture;
    this.stream = stream;
  }

  /** The setting's value as it is written, e.g. {@code jfr-only}. */
  String value() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The mode one of {@link SpanflightConfig#DIAGNOSTIC_MODES} names, e.g. {@link #JFR_ONLY} for
   * {@code jfr-only}; each of those values has one ({@code DiagnosticModeTest}).
   */
  static DiagnosticMode of(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  /**
   * The mode of the settings (already checked by {@link SpanflightConfig#read}: a bad value was
   * reported there, and {@code full} is in force); a warning when it is not {@link #FULL}.
   */
  static DiagnosticMode of(SpanflightConfig config) {
    DiagnosticMode mode = of(config.diagnosticMode());
    if (mode != FULL) {
      logger.warning("Spanflight runs only in part, as " + SpanflightConfig.DIAGNOSTIC_MODE + "=" + mode.value()
          + " asks: it produces no profiles; a diagnostic, not for production");
    }
    return mode;
  }
}
