package io.spanflight.internal.control;

import java.util.List;

/**
 * What the control MBean switches and shows; implemented by the profiler's switch ({@code Spanflight}).
 *
 * <p>Not API: internal to Spanflight.
 */
public interface ProfilerControl {

  /** The counters shown read-only by the MBean. */
  enum Counter {
    /** JFR events joined (with or without a span), since the JVM started. */
    SAMPLES,
    LINKED_SAMPLES,
    UNKNOWN_TIMELINE_SAMPLES,
    FILTERED_SAMPLES,
    DROPPED_SAMPLES,
    /** Threshold events shorter than ours, present because another recording asked for them. */
    EVENTS_BELOW_OUR_THRESHOLD,
    /** Wait events (lock, park, socket, file) of Spanflight's own threads, left out of the profiles. */
    OWN_THREAD_WAITS,
    LOST_SWITCHES,
    CONTEXTS,
    TIMELINE_THREADS,
    /**
     * Times a sampling source (CPU, CPU time, allocation) went blind: no event for three export
     * intervals while the application's threads worked.
     */
    BLIND_SOURCES,
    /** Samples JFR reported lost (the CPU-time sampler's jdk.CPUTimeSamplesLost), since the JVM started. */
    LOST_SAMPLES,
    /** Native per-thread rings allocated; -1 with the Java bridge. */
    NATIVE_RINGS,
    /**
     * Times Spanflight's own JFR chunk reader could not read a chunk and the JDK's event stream
     * took over, for good (0 or 1; see {@code otel.spanflight.jfr.reader}).
     */
    READER_FALLBACKS,
    STARTS,
    STOPS
  }

  /** Switches profiling on; false if it was on already (or the JVM is shutting down). */
  boolean switchOn();

  /** Switches profiling off; false if it was off already. */
  boolean switchOff();

  boolean running();

  /**
   * Switches profiling on or off by hand (the MBean's layer of the settings, above remote
   * configuration); true when that changed whether it runs.
   */
  boolean changeEnabled(boolean on);

  /**
   * Sets run-time settings by hand ({@code otel.spanflight.<key>=<value>} lines), whole or not at all.
   *
   * @throws IllegalArgumentException naming every bad line or value
   */
  void applySettings(String lines);

  /** Forgets every setting made by hand. */
  void clearSettings();

  /** Per setting not at its local value: its value and who set it. */
  List<String> settingsOrigins();

  long counter(Counter counter);

  /** One line per JFR setting of ours: our value and the value JFR applies now. */
  List<String> settingsInForce();

  /** The filter in force of {@code source} ({@code methodtiming} or {@code methodtrace}). */
  String methodFilter(String source);

  /**
   * Sets the filter of {@code source} at run time (empty: off).
   *
   * @throws IllegalArgumentException for a filter not in the JDK's syntax
   */
  void changeMethodFilter(String source, String filter);

  /** One line per source as configured. */
  String configuration();
}
