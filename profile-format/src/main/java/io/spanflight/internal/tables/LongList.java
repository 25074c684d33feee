package io.spanflight.internal.tables;

import java.util.Arrays;

/**
 * A growable list of primitive longs: no boxed {@code Long} per value (the report decodes samples
 * into them; the extension's profile dictionary keeps its tables in them across intervals). A
 * cleared list keeps its array while its last use needed it (see {@link Capacity}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class LongList {
  private static final int INITIAL = 8;
  private long[] values = new long[INITIAL];
  private int size;

  public void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  public long get(int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException(index + " >= " + size);
    }
    return values[index];
  }

  public int size() {
    return size;
  }

  public void clear() {
    int length = Capacity.afterClear(values.length, size, INITIAL);
    if (length != values.length) {
      values = new long[length];
    }
    size = 0;
  }

  public long sum() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return sum;
  }

  public int[] toIntArray() {
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = (int) values[i];
    }
    return out;
  }
}
