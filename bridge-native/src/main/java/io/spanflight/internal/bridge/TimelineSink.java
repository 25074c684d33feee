package io.spanflight.internal.bridge;

/**
 * Receives what a {@link ContextBridge#drain drain} copies out of the per-thread rings, in the
 * order each thread wrote it. Called on the draining thread only.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface TimelineSink {

  /** From {@code nanoTime} on ({@link System#nanoTime()} clock), the thread ran in {@code contextId}. */
  void switched(long javaThreadId, long nanoTime, int contextId);

  /**
   * {@code count} entries of this thread were overwritten before they were drained: between the
   * last entry delivered before this call and the next one, the thread's context is unknown.
   */
  void lost(long javaThreadId, long count);

  /** The thread ended and its ring has been drained for the last time. */
  void threadEnded(long javaThreadId);

  /**
   * One ring (of one OS thread, or of one platform thread in the Java bridge) has been drained for
   * this drain: {@code entries} of its entries were delivered. Lets the drain's pace follow the
   * fullest ring rather than all rings together.
   */
  default void ringDrained(int entries) {}
}
