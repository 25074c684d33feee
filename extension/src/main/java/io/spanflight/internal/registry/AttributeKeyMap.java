package io.spanflight.internal.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process-wide attribute key map of the OTEP-4947 thread record: a record refers to an
 * attribute key by its index here (one byte), and external readers find the keys in the
 * OTEP-4719 process context ({@code threadlocal.attribute_key_map}). Keys are only ever added, at
 * most {@value #MAX_KEYS}; a key beyond that is refused and counted.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class AttributeKeyMap {
  public static final int MAX_KEYS = 256;

  private final ConcurrentHashMap<String, Integer> indexes = new ConcurrentHashMap<>();
  private final List<String> keys = new ArrayList<>();
  private final AtomicLong refused = new AtomicLong();
  private volatile int version;

  /** The key's index (0-255), adding the key on first use; -1 when the map is full. */
  public int indexOf(String key) {
    Integer index = indexes.get(key);
    return index != null ? index : add(key);
  }

  private synchronized int add(String key) {
    Integer index = indexes.get(key);
    if (index != null) {
      return index;
    }
    if (keys.size() == MAX_KEYS) {
      refused.incrementAndGet();
      return -1;
    }
    keys.add(key);
    indexes.put(key, keys.size() - 1);
    version++;
    return keys.size() - 1;
  }

  /** The keys in index order, for the process context. */
  public synchronized List<String> keys() {
    return List.copyOf(keys);
  }

  /** Changes each time a key is added, so the process context can be republished. */
  public int version() {
    return version;
  }

  /** Keys refused because the map was full. */
  public long refused() {
    return refused.get();
  }
}
