package io.spanflight.internal.profile;

import java.util.Arrays;

/** A growable list of longs: no boxed {@code Long} per entry. Cleared lists keep their array. */
final class LongList {
  private long[] values = new long[64];
  private int size;

  void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  long get(int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException(index + " of " + size);
    }
    return values[index];
  }

  int size() {
    return size;
  }

  void clear() {
    size = 0;
  }
}
