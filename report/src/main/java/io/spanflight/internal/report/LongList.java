package io.spanflight.internal.report;

import java.util.Arrays;

/**
 * A growable list of primitive longs, so that decoding samples does not box every value.
 *
 * <p>Not API: internal to Spanflight.
 */
final class LongList {
  private long[] values = new long[8];
  private int size;

  void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  long get(int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException(index + " >= " + size);
    }
    return values[index];
  }

  int size() {
    return size;
  }

  void clear() {
    size = 0;
  }

  long sum() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return sum;
  }

  int[] toIntArray() {
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = (int) values[i];
    }
    return out;
  }
}
