package io.spanflight.internal.costs;

import io.spanflight.internal.format.CostKind;
import java.util.Arrays;

/**
 * What the joined samples and events cost each sampled span so far, keyed by span id: per {@link
 * CostKind}, a count and a total. Fed by the JFR consumer thread (one {@link #add} per joined event,
 * no allocation), emptied span by span when the span is exported ({@link #take}), and swept of
 * entries nobody took ({@link #expire}).
 *
 * <p>An open-addressing table with linear probing over primitive arrays, at most {@code maxSpans}
 * entries at a load of at most two thirds (128 bytes a slot); deletion shifts the entries behind back (no tombstones).
 * When it is full, events of spans not yet in it are not counted; {@link #lastOverflowNanos} says
 * when that last happened, so that a span alive then is reported as incomplete, never as cheaper
 * than it was.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanCostTable {
  static final int WIDTH = 2 * CostKind.COUNT;

  private final int maxSpans;
  private final int mask;
  /** Span ids; 0 is an empty slot (an all-zero span id is invalid). */
  private final long[] keys;
  /** WIDTH longs per slot: for each kind its count, then its total. */
  private final long[] values;
  /** When each slot was last added to (the stream's watermark then). */
  private final long[] touched;
  private int size;
  private long overflowEvents;
  private long lastOverflowNanos = Long.MIN_VALUE;
  /** The waits and calls that become child spans, or null when none do. */
  private final InferredEvents inferred;

  public SpanCostTable(int maxSpans) {
    this(maxSpans, null);
  }

  /** @param inferred where the join puts the events that become child spans; null for none */
  public SpanCostTable(int maxSpans, InferredEvents inferred) {
    this.maxSpans = maxSpans;
    this.inferred = inferred;
    int wanted = Math.max(2, maxSpans + maxSpans / 2); // a load of at most 2/3
    int slots = Integer.highestOneBit(wanted - 1) << 1;
    this.mask = slots - 1;
    this.keys = new long[slots];
    this.values = new long[slots * WIDTH];
    this.touched = new long[slots];
  }

  /**
   * Adds one event of {@code kind} worth {@code value} to span {@code spanId} at {@code atNanos}
   * (nanoTime clock).
   */
  public synchronized void add(long spanId, int kind, long value, long atNanos) {
    int slot = find(spanId);
    if (keys[slot] == 0) {
      if (size >= maxSpans) {
        overflowEvents++;
        lastOverflowNanos = atNanos;
        return;
      }
      keys[slot] = spanId;
      size++;
    }
    int base = slot * WIDTH + 2 * kind;
    values[base]++;
    values[base + 1] += value;
    touched[slot] = atNanos;
  }

  /**
   * Moves span {@code spanId}'s costs into {@code into} (WIDTH longs; zeros when it had none) and
   * forgets the span.
   */
  public synchronized void take(long spanId, long[] into) {
    int slot = find(spanId);
    if (keys[slot] == 0) {
      Arrays.fill(into, 0, WIDTH, 0);
      return;
    }
    System.arraycopy(values, slot * WIDTH, into, 0, WIDTH);
    remove(slot);
  }

  /** The events that become child spans, or null when none do. */
  public InferredEvents inferred() {
    return inferred;
  }

  /**
   * Forgets the spans last added to before {@code beforeNanos}, and their inferred events;
   * returns how many spans.
   */
  public synchronized int expire(long beforeNanos) {
    if (inferred != null) {
      inferred.expire(beforeNanos);
    }
    int removed = 0;
    for (int slot = 0; slot <= mask; ) {
      if (keys[slot] != 0 && touched[slot] < beforeNanos) {
        remove(slot); // an entry may have shifted into this slot: look at it again
        removed++;
      } else {
        slot++;
      }
    }
    return removed;
  }

  private int find(long spanId) {
    int slot = (int) mix(spanId) & mask;
    while (keys[slot] != 0 && keys[slot] != spanId) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** Empties {@code slot}, moving back the entries of its probe run that belong before it. */
  private void remove(int slot) {
    int hole = slot;
    int next = (hole + 1) & mask;
    while (keys[next] != 0) {
      int home = (int) mix(keys[next]) & mask;
      // the entry at next may fill the hole if its home is not in (hole, next]
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        keys[hole] = keys[next];
        touched[hole] = touched[next];
        System.arraycopy(values, next * WIDTH, values, hole * WIDTH, WIDTH);
        hole = next;
      }
      next = (next + 1) & mask;
    }
    keys[hole] = 0;
    Arrays.fill(values, hole * WIDTH, hole * WIDTH + WIDTH, 0);
    size--;
  }

  private static long mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    return x ^ (x >>> 33);
  }

  public synchronized int size() {
    return size;
  }

  /** Events not counted because the table was full. */
  public synchronized long overflowEvents() {
    return overflowEvents;
  }

  /** When an event was last not counted because the table was full; Long.MIN_VALUE if never. */
  public synchronized long lastOverflowNanos() {
    return lastOverflowNanos;
  }
}
