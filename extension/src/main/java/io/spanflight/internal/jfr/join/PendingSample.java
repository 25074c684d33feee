package io.spanflight.internal.jfr.join;

/**
 * What the join needs of one event that must wait (the clock is not calibrated yet, or the period
 * in force not reported), as the reader gave it: the stack and leaf are indexes of the reader's
 * store, valid while its generation is {@code storeGeneration}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class PendingSample {
  final JoinSource source;
  final long javaThreadId;
  final boolean virtual;
  final int stack;
  final int leaf;
  final int storeGeneration;
  final long startTicks;
  final long startEpochNanos;
  final long value;
  /** The peer or file of a socket or file event ({@link SampleJoiner#onEvent}), or null. */
  final String detail;

  PendingSample(JoinSource source, long javaThreadId, boolean virtual, int stack, int leaf, int storeGeneration,
      long startTicks, long startEpochNanos, long value, String detail) {
    this.detail = detail;
    this.source = source;
    this.javaThreadId = javaThreadId;
    this.virtual = virtual;
    this.stack = stack;
    this.leaf = leaf;
    this.storeGeneration = storeGeneration;
    this.startTicks = startTicks;
    this.startEpochNanos = startEpochNanos;
    this.value = value;
  }
}
