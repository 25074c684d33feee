package io.spanflight.internal.instrumentation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ids baked into the advice of instrumented methods: one per method (class name, method name,
 * descriptor), kept for the JVM's life so that a method that leaves the filter and joins it again
 * counts on in the same slot. At most {@code max} ids: a method beyond them is not instrumented
 * and its name is kept (the first few, memory stays bounded) for the log line that says so.
 *
 * <p>Thread-safe: classes are transformed on whichever thread loads them.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class MethodIds {
  /** How many refused methods are named in the log line. */
  static final int NAMED_EXCESS = 5;

  private final int max;
  private final Map<String, Integer> byKey = new HashMap<>();
  private final List<String[]> names = new ArrayList<>(); // {class, method, descriptor}
  private final Set<String> refused = new LinkedHashSet<>();
  private long refusedCount;

  MethodIds(int max) {
    this.max = max;
  }

  /** The id of the method, or -1 when the table is full (the method is then recorded as refused). */
  public synchronized int idOf(String className, String methodName, String descriptor) {
    String key = className + '.' + methodName + descriptor;
    Integer known = byKey.get(key);
    if (known != null) {
      return known;
    }
    if (names.size() >= max) {
      refusedCount++;
      if (refused.size() < NAMED_EXCESS) {
        refused.add(className + "::" + methodName + descriptor);
      }
      return -1;
    }
    int id = names.size();
    byKey.put(key, id);
    names.add(new String[] {className, methodName, descriptor});
    return id;
  }

  /** Ids handed out so far: 0 to size() - 1. */
  public synchronized int size() {
    return names.size();
  }

  /** {class name, method name, descriptor} of {@code id}. */
  public synchronized String[] name(int id) {
    return names.get(id);
  }

  /**
   * The methods refused since the previous call (how many, and the first few by name), or null
   * when none were; then forgets them.
   */
  synchronized String takeRefused() {
    if (refusedCount == 0) {
      return null;
    }
    String line = refusedCount + " method(s), among them " + String.join(", ", refused);
    refused.clear();
    refusedCount = 0;
    return line;
  }

  public int max() {
    return max;
  }
}
