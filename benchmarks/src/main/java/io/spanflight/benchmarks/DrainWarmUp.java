package io.spanflight.benchmarks;

import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.TimelineSink;
import java.util.concurrent.locks.LockSupport;

/**
 * Drains a bridge a few times, 10 ms apart, as the agent's drain thread does in its first 0.2 s:
 * the native bridge calibrates its switch clock at drains, and switches are stamped with TSC
 * ticks only once that clock's map fits. Without it a benchmark would measure a bridge that the
 * agent never runs for more than its first few drains.
 */
final class DrainWarmUp {
  private static final TimelineSink DISCARD =
      new TimelineSink() {
        @Override
        public void switched(long javaThreadId, long nanoTime, int contextId) {}

        @Override
        public void lost(long javaThreadId, long count) {}

        @Override
        public void threadEnded(long javaThreadId) {}
      };

  private DrainWarmUp() {}

  static void drain(ContextBridge bridge, int times) {
    for (int i = 0; i < times; i++) {
      bridge.drain(DISCARD);
      LockSupport.parkNanos(10_000_000L);
    }
  }
}
