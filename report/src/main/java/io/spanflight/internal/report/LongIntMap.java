package io.spanflight.internal.report;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to non-negative ints, for the {@link FrameTrie}'s
 * (parent, frame) to child lookup: no boxing, and a mixed hash (a boxed {@code Long} of {@code
 * parent << 32 | frame} hashes to {@code parent ^ frame}, which collides heavily).
 *
 * <p>Not API: internal to Spanflight.
 */
final class LongIntMap {
  private long[] keys = new long[1024];
  private int[] values = new int[1024];
  private int size;

  LongIntMap() {
    Arrays.fill(values, -1);
  }

  /** The value of {@code key}, or -1. */
  int get(long key) {
    int slot = slot(keys, values, key);
    return values[slot];
  }

  void put(long key, int value) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int slot = slot(keys, values, key);
    if (values[slot] < 0) {
      size++;
    }
    keys[slot] = key;
    values[slot] = value;
  }

  private static int slot(long[] keys, int[] values, long key) {
    int mask = keys.length - 1;
    int slot = (int) mix(key) & mask;
    while (values[slot] >= 0 && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** The finalizer of MurmurHash3's 64-bit hash. */
  private static long mix(long key) {
    long h = key;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    Arrays.fill(values, -1);
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] >= 0) {
        int slot = slot(keys, values, oldKeys[i]);
        keys[slot] = oldKeys[i];
        values[slot] = oldValues[i];
      }
    }
  }
}
