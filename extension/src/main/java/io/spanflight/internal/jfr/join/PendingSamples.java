package io.spanflight.internal.jfr.join;

import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.jfr.clock.JfrClock;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The events that wait before they can be joined: until the clock is calibrated and, for a periodic
 * source, JFR has reported the period in force (its {@code jdk.ActiveSetting} events come at the
 * start of the stream's first chunk, possibly after its first samples). If that report does not come
 * within {@value #SETTINGS_WAIT_MILLIS} ms, the configured period is used. At most {@value
 * #MAX_PENDING} wait; more are dropped and counted. A waiting event whose stack the store has
 * cleared since is dropped and counted too: its indexes mean nothing now. Used by the JFR consumer
 * thread only.
 *
 * <p>Not API: internal to Spanflight.
 */
final class PendingSamples {
  static final int MAX_PENDING = 50_000;
  static final long SETTINGS_WAIT_MILLIS = 3000;

  private final ArrayDeque<PendingSample> queue = new ArrayDeque<>();
  private final JfrClock clock;
  private final ConstantStore store;
  private final DroppedEvents dropped;
  /** Joins a waiting event once it can be. */
  private final Consumer<PendingSample> join;
  /** When the oldest waiting event began to wait. */
  private long since;

  PendingSamples(JfrClock clock, ConstantStore store, DroppedEvents dropped, Consumer<PendingSample> join) {
    this.clock = clock;
    this.store = store;
    this.dropped = dropped;
    this.join = join;
  }

  boolean isEmpty() {
    return queue.isEmpty();
  }

  /** Whether an event of {@code source} can be joined now. */
  boolean ready(JoinSource source) {
    return clock.calibrated()
        && (source.periodKnown()
            || System.nanoTime() - since > SETTINGS_WAIT_MILLIS * 1_000_000L);
  }

  /** Lets {@code sample} wait, or drops it when {@value #MAX_PENDING} wait already. */
  void add(PendingSample sample) {
    if (queue.isEmpty()) {
      since = System.nanoTime();
    }
    if (queue.size() < MAX_PENDING) {
      queue.add(sample);
    } else {
      dropped.add(DroppedEvents.Reason.TOO_MANY_WAITING);
    }
  }

  /** Joins the waiting events that can be joined now, in order; the others keep waiting. */
  void joinReady() {
    int n = queue.size();
    for (int i = 0; i < n; i++) {
      PendingSample p = queue.poll();
      if (p.storeGeneration != store.generation()) {
        dropped.add(DroppedEvents.Reason.STORE_CLEARED);
      } else if (ready(p.source)) {
        join.accept(p);
      } else {
        queue.add(p);
      }
    }
  }

  /**
   * The stream ended: the events still waiting are joined if the clock is calibrated (a periodic
   * source's with the configured period, as after {@value #SETTINGS_WAIT_MILLIS} ms), else counted
   * as dropped.
   */
  void joinAtEnd() {
    PendingSample p;
    while ((p = queue.poll()) != null) {
      if (p.storeGeneration != store.generation()) {
        dropped.add(DroppedEvents.Reason.STORE_CLEARED);
      } else if (clock.calibrated()) {
        join.accept(p);
      } else {
        dropped.add(DroppedEvents.Reason.WAITING_AT_END);
      }
    }
  }
}
