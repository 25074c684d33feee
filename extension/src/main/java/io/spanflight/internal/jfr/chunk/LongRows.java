package io.spanflight.internal.jfr.chunk;

import java.util.Arrays;

/**
 * Rows of a fixed number of longs in one growable array, reused from chunk to chunk.
 *
 * <p>Not API: internal to Spanflight.
 */
final class LongRows {
  private final int width;
  private long[] values;
  private int rows;

  LongRows(int width) {
    this.width = width;
    this.values = new long[width * 256];
  }

  /** Appends a row whose columns are then set with {@link #set}; returns its index. */
  int add() {
    if ((rows + 1) * width > values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    Arrays.fill(values, rows * width, (rows + 1) * width, 0);
    return rows++;
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

  void clear() {
    rows = 0;
  }
}
