package io.spanflight.internal.jfr.chunk;

import io.spanflight.internal.tables.Capacity;
import java.util.Arrays;

/**
 * Rows of a fixed number of longs in one growable array, reused from chunk to chunk (while the
 * last chunk needed it: see {@link Capacity}). Within a chunk, {@link #reset} empties the rows
 * and keeps the array whatever its size: a table emptied after each checkpoint would otherwise
 * shrink after a small one and grow again, array by array, for the next large one (megabytes a
 * minute, some of it copied into the old generation while it was still growing).
 *
 * <p>Not API: internal to Spanflight.
 */
final class LongRows {
  private static final int INITIAL_ROWS = 256;
  private final int width;
  private long[] values;
  private int rows;
  /** The most rows held since the last {@link #clear}. */
  private int peakRows;

  LongRows(int width) {
    this.width = width;
    this.values = new long[width * INITIAL_ROWS];
  }

  /** Appends a row whose columns are then set with {@link #set}; returns its index. */
  int add() {
    if ((rows + 1) * width > values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    Arrays.fill(values, rows * width, (rows + 1) * width, 0);
    return rows++;
  }

  /** Appends a row with {@code first} in its first column, the others set with {@link #set}; returns its index. */
  int add(long first) {
    int row = add();
    set(row, 0, first);
    return row;
  }

  void set(int row, int column, long value) {
    values[row * width + column] = value;
  }

  long get(int row, int column) {
    return values[row * width + column];
  }

  int size() {
    return rows;
  }

  /** Rows the array has room for (what the table holds in memory). */
  int capacity() {
    return values.length / width;
  }

  /** Empties the rows, keeping the array. */
  void reset() {
    peakRows = Math.max(peakRows, rows);
    rows = 0;
  }

  /** Empties the rows, and shrinks the array if the rows held since the last clear needed much less. */
  void clear() {
    reset();
    int length = Capacity.afterClear(values.length, peakRows * width, width * INITIAL_ROWS);
    if (length != values.length) {
      values = new long[length];
    }
    peakRows = 0;
  }
}
