package io.spanflight.internal.costs;

import io.spanflight.internal.config.InferredSpanSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The waits and traced calls waiting for their parent span to be exported, keyed by the parent's
 * span id: fed by the join (the JFR consumer thread, and the method hooks' drain on JDK 17 and
 * 21), taken by the cost exporter as it sends the parent ({@link #take}), swept of parents never
 * exported ({@link #expire}).
 *
 * <p>Never a flood: at most {@code maxPerSpan} events a parent and {@code maxPerSecond} a second
 * in this JVM; what is turned away is counted on its parent ({@link Taken#dropped}), which the
 * exporter puts on the parent span. At most {@link #MAX_PARENTS} parents are tracked at once;
 * events of further parents are only counted ({@link #untracked()}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class InferredEvents {
  /** The most parents with events held at once (a parent is taken within seconds, or expires). */
  static final int MAX_PARENTS = 10_000;
  private static final long SECOND = 1_000_000_000L;

  /** What {@link #take} gives: the parent's events and how many were turned away. */
  public record Taken(List<InferredEvent> events, long dropped) {
    static final Taken NONE = new Taken(List.of(), 0);
  }

  private static final class Parent {
    final List<InferredEvent> events = new ArrayList<>(4);
    long dropped;
    long touched;
  }

  private final boolean waits;
  private final boolean methods;
  private final long minNanos;
  private final int maxPerSpan;
  private final int maxPerSecond;
  private final boolean addresses;
  private final boolean paths;
  private final Map<Long, Parent> parents = new HashMap<>();
  private long secondStart = Long.MIN_VALUE;
  private int inSecond;
  private long untracked;

  public InferredEvents(InferredSpanSettings settings) {
    this.waits = settings.waits();
    this.methods = settings.methods();
    this.minNanos = settings.minDuration().toNanos();
    this.maxPerSpan = settings.maxPerSpan();
    this.maxPerSecond = settings.maxPerSecond();
    this.addresses = settings.addresses();
    this.paths = settings.paths();
  }

  /** Whether a wait ({@code method} false) or traced call of this length becomes a span. */
  public boolean wanted(boolean method, long durationNanos) {
    return (method ? methods : waits) && durationNanos >= minNanos;
  }

  /**
   * Keeps {@code event} for the span {@code parentSpanId}, or counts it there as dropped when a cap
   * is reached; {@code nowNanos} is the feeder's nanoTime (the per-second cap's clock).
   */
  public synchronized void add(long parentSpanId, InferredEvent event, long nowNanos) {
    Parent parent = parents.get(parentSpanId);
    if (parent == null) {
      if (parents.size() >= MAX_PARENTS) {
        untracked++;
        return;
      }
      parent = new Parent();
      parents.put(parentSpanId, parent);
    }
    parent.touched = nowNanos;
    if (secondStart == Long.MIN_VALUE || nowNanos - secondStart >= SECOND) {
      secondStart = nowNanos;
      inSecond = 0;
    }
    if (parent.events.size() >= maxPerSpan || inSecond >= maxPerSecond) {
      parent.dropped++;
      return;
    }
    inSecond++;
    parent.events.add(withAllowedDetail(event));
  }

  /** The event without the peer address or file path where the settings keep them off the span. */
  private InferredEvent withAllowedDetail(InferredEvent event) {
    if (event.detail() == null || (event.type().startsWith("socket") ? addresses : event.type().startsWith("file") && paths)) {
      return event;
    }
    return new InferredEvent(event.type(), event.startNanos(), event.durationNanos(), event.threadId(), event.function(),
        event.stack(), null);
  }

  /** Moves out what is held for {@code parentSpanId}, and forgets it. */
  public synchronized Taken take(long parentSpanId) {
    Parent parent = parents.remove(parentSpanId);
    return parent == null ? Taken.NONE : new Taken(parent.events, parent.dropped);
  }

  /** Forgets the parents last added to before {@code beforeNanos} (never exported); returns how many. */
  public synchronized int expire(long beforeNanos) {
    int before = parents.size();
    parents.values().removeIf(parent -> parent.touched < beforeNanos);
    return before - parents.size();
  }

  /** Events not kept because {@link #MAX_PARENTS} parents were held. */
  public synchronized long untracked() {
    return untracked;
  }

  /** Parents held now. */
  public synchronized int parents() {
    return parents.size();
  }
}
