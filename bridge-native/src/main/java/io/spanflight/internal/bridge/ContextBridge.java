package io.spanflight.internal.bridge;

/**
 * Where a context switch goes: one call per switch from the application thread, and a drain that
 * a single background thread calls to move the switches into timelines.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface ContextBridge {

  /**
   * Records that the calling thread now runs in {@code contextId} (0 = no context). Never throws,
   * never blocks, allocates nothing after the thread's first call.
   */
  void switchTo(int contextId);

  /** Copies every entry written since the previous drain into {@code sink}. One caller at a time. */
  void drain(TimelineSink sink);

  /** A short name of the implementation, for the startup log line. */
  String implementation();
}
