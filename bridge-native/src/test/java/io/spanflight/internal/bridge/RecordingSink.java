package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/** Records what drains deliver as "thread:context", "thread:lostN", "thread:ended" events. */
final class RecordingSink implements TimelineSink {
  final List<String> events = new ArrayList<>();
  final Set<Long> ended = new HashSet<>();
  /** The times of the switches, in delivery order. */
  final List<Long> times = new ArrayList<>();
  /** Each drained ring's count of delivered entries, in delivery order. */
  final List<Integer> ringCounts = new ArrayList<>();

  @Override
  public void switched(long javaThreadId, long nanoTime, int contextId) {
    events.add(javaThreadId + ":" + contextId);
    times.add(nanoTime);
  }

  @Override
  public void lost(long javaThreadId, long count) {
    events.add(javaThreadId + ":lost" + count);
  }

  @Override
  public void ringDrained(int entries) {
    ringCounts.add(entries);
  }

  @Override
  public void threadEnded(long javaThreadId) {
    events.add(javaThreadId + ":ended");
    ended.add(javaThreadId);
  }

  /** How many switches were delivered (lost counts and ends aside). */
  long switches() {
    return times.size();
  }

  /** The events of one thread, in delivery order. */
  List<String> eventsOf(long javaThreadId) {
    List<String> of = new ArrayList<>();
    for (String event : events) {
      if (event.startsWith(javaThreadId + ":")) {
        of.add(event.substring(event.indexOf(':') + 1));
      }
    }
    return of;
  }

  /** Drains into this sink until {@code done} holds; fails after ten seconds. */
  void drainUntil(ContextBridge bridge, BooleanSupplier done) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    bridge.drain(this);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("not reached within 10 s; events: " + events);
      }
      Thread.onSpinWait();
      bridge.drain(this);
    }
  }
}
