package io.spanflight.internal.profile;

import java.util.HashMap;
import java.util.Map;

/**
 * The three names of each function (name, system name with descriptor, file), built once and
 * kept across export intervals: a dictionary lives for an interval and young collections copy
 * every string it holds, so strings built anew each interval were copied again and again; kept
 * here they age once into the old generation. Used under the {@link ProfileCollector}'s lock.
 *
 * <p>At most {@value #MAX_FUNCTIONS} functions (about 430 bytes each), in two generations: names
 * used since the last turn, and those of the turn before, which move back when used again and
 * are let go at the next turn otherwise. A service's profiles keep meeting functions they never
 * met (Spring PetClinic: 10 338 in its first three minutes, 500 to 900 in one interval), so a
 * cache that only grows, or one that starts over when full, held megabytes of names nobody asked
 * for again; this one keeps those in use. The bound is what a busy service keeps using: at 2 048
 * (two intervals' worth at a moderate load), PetClinic under 1 100 requests a second turned a
 * generation every few seconds and rebuilt about 5 000 functions' names every 20 s, each held past
 * G1's tenuring and then dropped: 2.3-3.6 MB a minute of old-generation garbage with the interval
 * dictionaries' entries (heap dumps, 2026-11-30). At 8 192, a heap dump of PetClinic at 190 s
 * found 4 795 functions held (1.7 MB).
 */
final class FunctionNames {
  static final int MAX_FUNCTIONS = 8192;

  /** Names used since the last turn, by system name: at most half of {@link #MAX_FUNCTIONS}. */
  private Map<String, String[]> recent = new HashMap<>();
  /** Names used in the turn before, not used since. */
  private Map<String, String[]> older = new HashMap<>();

  /** {name, systemName, fileName}, the same array for the same function while it is kept. */
  String[] of(String className, String methodName, String descriptor) {
    String systemName = className + '.' + methodName + descriptor;
    String[] names = recent.get(systemName);
    if (names != null) {
      return names;
    }
    names = older.remove(systemName);
    if (names == null) {
      names = new String[] {className + '.' + methodName, systemName, DictionaryBuilder.sourceFileOf(className)};
    }
    if (recent.size() >= MAX_FUNCTIONS / 2) {
      older = recent; // what was not used again since the last turn goes now
      recent = new HashMap<>();
    }
    recent.put(names[1], names);
    return names;
  }

  /** Functions held. */
  int size() {
    return recent.size() + older.size();
  }
}
