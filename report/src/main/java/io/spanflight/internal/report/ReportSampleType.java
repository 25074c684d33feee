package io.spanflight.internal.report;

import java.util.List;
import java.util.Locale;

/**
 * A sample type as the report shows it: the OTLP type and unit, a short label (the Spanflight
 * source that produces it, such as {@code cpu} or {@code alloc}), the period, and the summary
 * category it counts towards.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ReportSampleType {
  /** The summary categories, in the order the terminal summary prints them. */
  enum Category {
    CPU("CPU"), ALLOCATION("allocation"), LOCK("lock"), IO("I/O"), OTHER("other");

    final String label;

    Category(String label) {
      this.label = label;
    }
  }

  /** Known OTLP sample types written by Spanflight, in display order. */
  private static final List<String> ORDER = List.of(
      "samples", "cpu", "native_samples", "alloc_space", "lock_contention", "lock_wait", "park",
      "socket_read", "socket_write", "file_read", "file_write", "method_trace", "method_time",
      "method_invocations");

  final String type;
  final String unit;
  final String label;
  final Category category;
  String periodType = "";
  String periodUnit = "";
  long period;

  ReportSampleType(String type, String unit) {
    this.type = type;
    this.unit = unit;
    this.label = label(type);
    this.category = category(type);
  }

  static String key(String type, String unit) {
    return type + "/" + unit;
  }

  /** Sorts known types in source order, then the others by name. */
  int rank() {
    int index = ORDER.indexOf(type);
    return index >= 0 ? index : ORDER.size();
  }

  /**
   * The value converted to nanoseconds where it stands for time: CPU sample counts times their
   * period, and nanosecond values as they are; -1 where it does not.
   */
  long nanos(long value) {
    if (unit.equals("nanoseconds")) {
      return value;
    }
    if (unit.equals("count") && periodType.equals("cpu") && periodUnit.equals("nanoseconds") && period > 0) {
      return value * period;
    }
    return -1;
  }

  private static String label(String type) {
    switch (type) {
      case "samples": return "cpu";
      case "cpu": return "cputime";
      case "native_samples": return "native";
      case "alloc_space": return "alloc";
      case "lock_contention": return "lock";
      case "lock_wait": return "monitor wait";
      case "method_trace": return "method trace";
      case "method_time": return "method timing";
      case "method_invocations": return "method calls";
      default: return type.replace('_', ' ').toLowerCase(Locale.ROOT);
    }
  }

  private static Category category(String type) {
    switch (type) {
      case "samples":
      case "cpu":
        return Category.CPU;
      case "alloc_space":
        return Category.ALLOCATION;
      case "lock_contention": // not lock_wait (Object.wait) nor park: mostly threads idling for work
        return Category.LOCK;
      case "socket_read":
      case "socket_write":
      case "file_read":
      case "file_write":
        return Category.IO;
      default:
        return Category.OTHER;
    }
  }
}
