package io.spanflight.internal.bridge;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Live heap bytes per class, after a full GC: the JVM's own {@code GC.class_histogram} diagnostic
 * command, read through its MBean.
 */
final class HeapHistogram {
  private final Map<String, Long> bytes;

  private HeapHistogram(Map<String, Long> bytes) {
    this.bytes = bytes;
  }

  /** Collects garbage, then counts what is left. */
  static HeapHistogram take() {
    String text;
    try {
      text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
          new Object[] {new String[0]}, new String[] {String[].class.getName()});
    } catch (JMException e) {
      throw new AssertionError("no class histogram from the JVM", e);
    }
    Map<String, Long> bytes = new HashMap<>();
    for (String line : text.split("\n")) {
      // " 12:   100000   6400000  io.spanflight.internal.bridge.TimelineRing (module)"
      String[] fields = line.trim().split("\\s+");
      if (fields.length >= 4 && fields[0].endsWith(":")) {
        bytes.merge(fields[3], Long.parseLong(fields[2]), Long::sum);
      }
    }
    return new HeapHistogram(bytes);
  }

  long total() {
    return bytes.values().stream().mapToLong(Long::longValue).sum();
  }

  long of(String className) {
    return bytes.getOrDefault(className, 0L);
  }

  /** The largest growths since {@code before}, "class +bytes", for a failure message or a log. */
  String largestGrowthSince(HeapHistogram before, int count) {
    StringBuilder text = new StringBuilder();
    bytes.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.of(e.getKey())))
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(count)
        .forEach(e -> text.append(e.getKey()).append(" +").append(e.getValue()).append("; "));
    return text.toString();
  }
}
