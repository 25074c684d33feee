package io.spanflight.internal.profile;

import io.spanflight.internal.registry.SpanLink;
import io.spanflight.internal.tables.Capacity;
import java.util.Arrays;

/**
 * The spans an interval's samples link to, each once, as plain numbers: index 0 is no span. A map
 * of {@link SpanLink} objects took a new object per sample to look one up, and kept one per span
 * for the interval (10 s at the default), long enough to outlive the young collections and die in
 * the old generation (the demo's soak, 2026-11-30). Open addressing over the rows' indexes; a
 * cleared table keeps its arrays for the next interval ({@link Capacity}).
 *
 * <p>Not API: internal to Spanflight.
 */
final class LinkTable {
  private static final int INITIAL_ROWS = 64;

  /** Per link: trace id high and low halves, span id. Row 0 is no span. */
  private long[] rows = new long[3 * INITIAL_ROWS];
  private int size;
  /** Row index + 1 per slot, 0 for a free slot; at most half full. */
  private int[] slots = new int[2 * INITIAL_ROWS];

  LinkTable() {
    clear();
  }

  /** The index of the link to that span, added if new. */
  int intern(long traceIdHigh, long traceIdLow, long spanId) {
    int mask = slots.length - 1;
    int slot = home(traceIdHigh, traceIdLow, spanId, mask);
    for (int row; (row = slots[slot] - 1) >= 0; slot = (slot + 1) & mask) {
      if (rows[3 * row] == traceIdHigh && rows[3 * row + 1] == traceIdLow && rows[3 * row + 2] == spanId) {
        return row;
      }
    }
    int row = add(traceIdHigh, traceIdLow, spanId);
    if (2 * size > slots.length) {
      rehash(slots.length * 2);
    } else {
      slots[slot] = row + 1;
    }
    return row;
  }

  int size() {
    return size;
  }

  /** The link at {@code index} (1 to size - 1), made for an encoder. */
  SpanLink get(int index) {
    return new SpanLink(rows[3 * index], rows[3 * index + 1], rows[3 * index + 2]);
  }

  /** Empties the table down to row 0, keeping its arrays unless they are far larger than this interval needed. */
  void clear() {
    int rowLength = Capacity.afterClear(rows.length / 3, size, INITIAL_ROWS) * 3;
    if (rowLength != rows.length) {
      rows = new long[rowLength];
    }
    int slotLength = Capacity.afterClear(slots.length, 2 * size, 2 * INITIAL_ROWS);
    if (slotLength != slots.length) {
      slots = new int[slotLength];
    } else {
      Arrays.fill(slots, 0);
    }
    size = 0;
    add(0, 0, 0); // no span: never looked up
  }

  private int add(long traceIdHigh, long traceIdLow, long spanId) {
    if (3 * (size + 1) > rows.length) {
      rows = Arrays.copyOf(rows, rows.length * 2);
    }
    rows[3 * size] = traceIdHigh;
    rows[3 * size + 1] = traceIdLow;
    rows[3 * size + 2] = spanId;
    return size++;
  }

  private void rehash(int length) {
    slots = new int[length];
    int mask = length - 1;
    for (int row = 1; row < size; row++) {
      int slot = home(rows[3 * row], rows[3 * row + 1], rows[3 * row + 2], mask);
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = row + 1;
    }
  }

  /** Span ids are random: their bits, mixed with the trace's, spread well enough. */
  private static int home(long traceIdHigh, long traceIdLow, long spanId, int mask) {
    long h = (spanId ^ traceIdLow * 0x9E3779B97F4A7C15L ^ traceIdHigh) * 0xff51afd7ed558ccdL;
    return (int) (h ^ h >>> 32) & mask;
  }
}
