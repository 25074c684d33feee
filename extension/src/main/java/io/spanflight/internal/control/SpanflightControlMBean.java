package io.spanflight.internal.control;

/**
 * The JMX view of Spanflight, registered as {@value SpanflightControl#OBJECT_NAME}: switch
 * profiling off and on at run time, and read its counters and the JFR settings in force. Every
 * counter counts since the JVM started.
 *
 * <p>Not API: internal to Spanflight (the attribute names are documented in docs/jfr-recordings.md).
 */
public interface SpanflightControlMBean {

  /** Switches profiling on (a new JFR stream); false if it was on already. */
  boolean start();

  /**
   * Switches profiling off: exports what was sampled, closes our JFR stream (other recordings are
   * untouched), ends our threads and frees the native memory of exited threads.
   */
  boolean stop();

  boolean isRunning();

  long getSamples();

  long getLinkedSamples();

  long getUnknownTimelineSamples();

  long getFilteredSamples();

  long getDroppedSamples();

  long getEventsBelowOurThreshold();

  long getOwnThreadWaits();

  long getLostSwitches();

  long getContexts();

  long getTimelineThreads();

  long getNativeRings();

  /** Times a sampling source went blind since the JVM started (see docs/jfr-recordings.md). */
  long getBlindSources();

  /** Samples JFR's CPU-time sampler reported lost since the JVM started (jdk.CPUTimeSamplesLost). */
  long getLostSamples();

  /** 1 once the JDK's event stream reads our recording because Spanflight's reader could not (else 0). */
  long getReaderFallbacks();

  long getStarts();

  long getStops();

  /** Per JFR setting of ours: {@code jdk.ExecutionSample#period: ours 20 ms, in force 10 ms}. */
  String[] getSettingsInForce();

  String getConfiguration();

  /** The {@code methodtiming} filter in force (JDK syntax; empty: off). */
  String getMethodTimingFilter();

  /** Sets the {@code methodtiming} filter: methods leave and join it without a restart. */
  void setMethodTimingFilter(String filter);

  /** The {@code methodtrace} filter in force (JDK syntax; empty: off). */
  String getMethodTraceFilter();

  /** Sets the {@code methodtrace} filter: methods leave and join it without a restart. */
  void setMethodTraceFilter(String filter);

  /**
   * Sets run-time settings by hand, above the local and remote ones: one {@code
   * otel.spanflight.<key>=<value>} per line (on/off, sources and their rates, context filters,
   * method filters, the export interval). Applied whole or not at all; a refusal names every bad
   * line. Replaces what this operation set before.
   */
  void applySettings(String lines);

  /** Removes every setting made through this MBean: the remote and local ones are in force again. */
  void clearSettings();

  /** Per setting not at its local value: {@code key=value (remote until 2026-12-06T22:00:00Z)} or {@code (jmx)}. */
  String[] getSettingsOrigins();
}
