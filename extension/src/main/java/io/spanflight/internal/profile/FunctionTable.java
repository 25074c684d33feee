package io.spanflight.internal.profile;

import io.spanflight.internal.tables.Capacity;
import java.util.Arrays;

/**
 * The function table of one export interval: per function, three string indexes (name, system
 * name, file name) in one int array that a cleared table keeps for the next interval (while the
 * interval before needed it: see {@link Capacity}). An object per function lived the whole
 * interval (10 s), past G1's tenuring on a busy service, and was dropped at its end: on Spring
 * PetClinic a fifth of what Spanflight promoted in PLABs (JFR's {@code jdk.PromoteObjectInNewPLAB},
 * 2026-12-06).
 *
 * <p>Not API: internal to Spanflight.
 */
final class FunctionTable {
  private static final int WIDTH = 3;
  private static final int INITIAL = WIDTH * 256;
  private int[] names = new int[INITIAL];
  private int size;

  /** Appends a function; returns its index. */
  int add(int name, int systemName, int fileName) {
    if (WIDTH * (size + 1) > names.length) {
      names = Arrays.copyOf(names, names.length * 2);
    }
    names[WIDTH * size] = name;
    names[WIDTH * size + 1] = systemName;
    names[WIDTH * size + 2] = fileName;
    return size++;
  }

  int size() {
    return size;
  }

  /** The string index of function {@code index}'s name. */
  int name(int index) {
    return names[WIDTH * checked(index)];
  }

  int systemName(int index) {
    return names[WIDTH * checked(index) + 1];
  }

  int fileName(int index) {
    return names[WIDTH * checked(index) + 2];
  }

  void clear() {
    int length = Capacity.afterClear(names.length, WIDTH * size, INITIAL);
    if (length != names.length) {
      names = new int[length];
    }
    size = 0;
  }

  private int checked(int index) {
    if (index >= size) {
      throw new IndexOutOfBoundsException(index + " >= " + size);
    }
    return index;
  }
}
