package io.spanflight.internal.profile;

import java.util.Arrays;

/**
 * Long keys to table indexes (0 and up), as {@link IndexMap} but with the keys in a long array:
 * no boxed {@code Long} or {@code Integer} and no node per entry. A cleared map keeps its arrays.
 */
final class LongIndexMap {
  static final int ABSENT = -1;

  private long[] keys = new long[64];
  /** The index of the key in the same slot, plus one; 0 marks an empty slot. */
  private int[] indexesPlusOne = new int[64];
  private int size;

  /** The index of {@code key}, or {@link #ABSENT}. */
  int get(long key) {
    int mask = keys.length - 1;
    for (int slot = slotOf(key, mask); ; slot = (slot + 1) & mask) {
      int stored = indexesPlusOne[slot];
      if (stored == 0) {
        return ABSENT;
      }
      if (keys[slot] == key) {
        return stored - 1;
      }
    }
  }

  /** Maps a key that is not present. */
  void put(long key, int index) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    insert(key, index + 1);
    size++;
  }

  void clear() {
    Arrays.fill(indexesPlusOne, 0);
    size = 0;
  }

  private void insert(long key, int indexPlusOne) {
    int mask = keys.length - 1;
    int slot = slotOf(key, mask);
    while (indexesPlusOne[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    indexesPlusOne[slot] = indexPlusOne;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldIndexes = indexesPlusOne;
    keys = new long[oldKeys.length * 2];
    indexesPlusOne = new int[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldIndexes[i] != 0) {
        insert(oldKeys[i], oldIndexes[i]);
      }
    }
  }

  private static int slotOf(long key, int mask) {
    return IndexMap.spread(Long.hashCode(key)) & mask;
  }
}
