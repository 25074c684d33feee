package io.spanflight.internal.registry;

/**
 * A first-in first-out queue of ints that grows as needed, for slot ids: no boxed Integer and no
 * node per entry. Synchronized: taken when a record is created (once per span), filled by pruning.
 */
final class IntQueue {
  /** Its length is a power of two (64, doubled as it grows): an index wraps with a mask, not a division. */
  private int[] ring = new int[64];
  private int head;
  private int size;

  synchronized void add(int value) {
    if (size == ring.length) {
      int[] bigger = new int[ring.length * 2];
      for (int i = 0; i < size; i++) {
        bigger[i] = ring[(head + i) & (ring.length - 1)];
      }
      ring = bigger;
      head = 0;
    }
    ring[(head + size++) & (ring.length - 1)] = value;
  }

  /** The oldest value, removed, or {@code empty} when there is none. */
  synchronized int poll(int empty) {
    if (size == 0) {
      return empty;
    }
    int value = ring[head];
    head = (head + 1) & (ring.length - 1);
    size--;
    return value;
  }

  synchronized int size() {
    return size;
  }

  /**
   * The newest value, removed, if more than {@code kept} values are held; else {@code empty}. For
   * trimming the queue from its far end.
   */
  synchronized int pollNewestBeyond(int kept, int empty) {
    if (size <= kept) {
      return empty;
    }
    size--;
    int at = (head + size) & (ring.length - 1);
    int value = ring[at];
    ring[at] = 0;
    return value;
  }
}
