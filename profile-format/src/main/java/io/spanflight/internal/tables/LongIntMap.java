package io.spanflight.internal.tables;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to non-negative ints (the report's frame trie: (parent,
 * frame) to child; the extension's profile dictionary: location or attribute to its index): no
 * boxing, no node per entry, and a mixed hash (a boxed {@code Long} of {@code a << 32 | b}
 * hashes to {@code a ^ b}, which collides heavily). A cleared map keeps its arrays while its last
 * use needed them (see {@link Capacity}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class LongIntMap {
  /** What {@link #get} answers for a key that is not present. */
  public static final int ABSENT = -1;

  private static final int INITIAL = 1024;
  private long[] keys = new long[INITIAL];
  private int[] values = new int[INITIAL];
  private int size;

  public LongIntMap() {
    Arrays.fill(values, -1);
  }

  /** The value of {@code key}, or {@link #ABSENT}. */
  public int get(long key) {
    int slot = slot(keys, values, key);
    return values[slot];
  }

  public void put(long key, int value) {
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

  /** Empties the map, keeping its arrays unless they are far larger than this use needed. */
  public void clear() {
    int length = Capacity.afterClear(keys.length, 2 * size, INITIAL);
    if (length != keys.length) {
      keys = new long[length];
      values = new int[length];
    }
    Arrays.fill(values, -1);
    size = 0;
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
