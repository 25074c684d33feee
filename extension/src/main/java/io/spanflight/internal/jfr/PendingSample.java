package io.spanflight.internal.jfr;

import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * What the join needs of one event that must wait (the clock is not calibrated yet, or the period
 * in force not reported), read when it arrives: the join takes these values, not the event, so it
 * reads no JFR event object. The thread, stack and method are the chunk's constants.
 *
 * <p>Not API: internal to Spanflight.
 */
final class PendingSample {
  final JfrSource source;
  final RecordedThread thread;
  final RecordedStackTrace stack;
  final RecordedMethod leaf;
  final long startTicks;
  final long startEpochNanos;
  final long value;

  PendingSample(JfrSource source, RecordedThread thread, RecordedStackTrace stack, RecordedMethod leaf,
      long startTicks, long startEpochNanos, long value) {
    this.source = source;
    this.thread = thread;
    this.stack = stack;
    this.leaf = leaf;
    this.startTicks = startTicks;
    this.startEpochNanos = startEpochNanos;
    this.value = value;
  }
}
