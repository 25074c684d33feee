package io.spanflight.internal.profile;

import java.util.HashMap;
import java.util.Map;

/**
 * The three names of each function (name, system name with descriptor, file), built once and
 * kept across export intervals: a dictionary lives for an interval and young collections copy
 * every string it holds, so strings built anew each interval were copied again and again; kept
 * here they age once into the old generation. At most {@value #MAX_FUNCTIONS} functions; when
 * full, it starts over. Used under the {@link ProfileCollector}'s lock.
 */
final class FunctionNames {
  static final int MAX_FUNCTIONS = 1 << 16;

  private final Map<String, String[]> bySystemName = new HashMap<>();

  /** {name, systemName, fileName}, the same array for the same function. */
  String[] of(String className, String methodName, String descriptor) {
    String systemName = className + '.' + methodName + descriptor;
    String[] names = bySystemName.get(systemName);
    if (names == null) {
      if (bySystemName.size() >= MAX_FUNCTIONS) {
        bySystemName.clear();
      }
      names = new String[] {className + '.' + methodName, systemName, DictionaryBuilder.sourceFileOf(className)};
      bySystemName.put(systemName, names);
    }
    return names;
  }
}
