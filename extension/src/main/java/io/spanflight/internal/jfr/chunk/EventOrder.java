package io.spanflight.internal.jfr.chunk;

import java.util.Arrays;

/**
 * Holds back the events of one read and hands them out by end time (start plus duration, in
 * ticks), ties in the order read: what the JDK's ordered {@code RecordingStream} does with each
 * flush. JFR writes each thread's buffer whole, so a flush's events come in runs per thread, not
 * in time order; a consumer that takes "this event came" to mean "everything before it came" needs
 * them sorted.
 *
 * <p>Events are kept as rows of longs (end, subscription, fields) in arrays reused from read to
 * read. A read of more than {@value #MAX_EVENTS} events is handed out in slices of that many, each
 * sorted.
 *
 * <p>Not API: internal to Spanflight.
 */
final class EventOrder {
  static final int MAX_EVENTS = 1 << 18;

  private final int width;
  private long[] rows;
  private int[] order = new int[1024];
  private int[] merged = new int[1024];
  private long[] values;
  private int count;

  /** For events of at most {@code fields} fields. */
  EventOrder(int fields) {
    this.width = 2 + fields;
    this.rows = new long[width * 1024];
    this.values = new long[fields];
  }

  /** Holds an event back; hands out the events held when there are {@value #MAX_EVENTS} of them. */
  void add(long endTicks, int subscription, long[] fields, ChunkReader.Events events) {
    if (count == MAX_EVENTS) {
      handOut(events);
    }
    if ((count + 1) * width > rows.length) {
      rows = Arrays.copyOf(rows, rows.length * 2);
      order = Arrays.copyOf(order, order.length * 2);
      merged = new int[order.length];
    }
    int at = count * width;
    rows[at] = endTicks;
    rows[at + 1] = subscription;
    System.arraycopy(fields, 0, rows, at + 2, width - 2);
    order[count] = count;
    count++;
  }

  /**
   * Hands out the events held, by end time, and forgets them first: should a handler throw, the
   * rest are dropped rather than handed out again.
   */
  void handOut(ChunkReader.Events events) {
    int held = count;
    count = 0;
    sort(0, held);
    for (int i = 0; i < held; i++) {
      int at = order[i] * width;
      System.arraycopy(rows, at + 2, values, 0, width - 2);
      events.event((int) rows[at + 1], values);
    }
  }

  /** Stable merge sort of {@code order[from..to)} by end time. */
  private void sort(int from, int to) {
    if (to - from < 2) {
      return;
    }
    int middle = (from + to) >>> 1;
    sort(from, middle);
    sort(middle, to);
    if (end(order[middle - 1]) <= end(order[middle])) {
      return; // already in order: the usual case within one thread's run
    }
    int left = from;
    int right = middle;
    for (int i = from; i < to; i++) {
      merged[i] = right >= to || (left < middle && end(order[left]) <= end(order[right])) ? order[left++] : order[right++];
    }
    System.arraycopy(merged, from, order, from, to - from);
  }

  private long end(int event) {
    return rows[event * width];
  }
}
