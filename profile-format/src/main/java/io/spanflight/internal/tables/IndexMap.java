package io.spanflight.internal.tables;

import java.util.Arrays;

/**
 * Keys to table indexes (0 and up), for interning: open addressing over a key array and an int
 * array, so that an entry costs no map node and no boxed {@code Integer} (a dictionary lives for
 * an export interval, seconds, and young collections copy every object it holds; the JFR reader's
 * constant store holds one for as long as it keeps its strings). Keys are compared with {@code
 * equals}. A cleared map keeps its arrays while its last use needed them (see {@link Capacity}).
 * (Long keys: {@link LongIntMap}.)
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param <K> the key type
 */
public final class IndexMap<K> {
  public static final int ABSENT = -1;

  private static final int INITIAL = 64;
  private Object[] keys = new Object[INITIAL];
  /** The index of the key in the same slot. */
  private int[] indexes = new int[INITIAL];
  private int size;

  /** The index of {@code key}, or {@link #ABSENT}. */
  public int get(K key) {
    int mask = keys.length - 1;
    for (int slot = spread(key.hashCode()) & mask; ; slot = (slot + 1) & mask) {
      Object present = keys[slot];
      if (present == null) {
        return ABSENT;
      }
      if (present.equals(key)) {
        return indexes[slot];
      }
    }
  }

  /** Maps a key that is not present. */
  public void put(K key, int index) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    insert(key, index);
    size++;
  }

  public void clear() {
    int length = Capacity.afterClear(keys.length, 2 * size, INITIAL);
    if (length != keys.length) {
      keys = new Object[length];
      indexes = new int[length];
    } else {
      Arrays.fill(keys, null);
    }
    size = 0;
  }

  private void insert(Object key, int index) {
    int mask = keys.length - 1;
    int slot = spread(key.hashCode()) & mask;
    while (keys[slot] != null) {
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    indexes[slot] = index;
  }

  private void grow() {
    Object[] oldKeys = keys;
    int[] oldIndexes = indexes;
    keys = new Object[oldKeys.length * 2];
    indexes = new int[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        insert(oldKeys[i], oldIndexes[i]);
      }
    }
  }

  /** Mixes the hash's high bits into the low ones that pick the slot. */
  public static int spread(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
