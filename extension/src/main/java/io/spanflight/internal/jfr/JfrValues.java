package io.spanflight.internal.jfr;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads JFR setting values as JFR writes them: durations ({@code "20 ms"}, {@code "20000000 ns"},
 * {@code "20ms"}) and rates ({@code "150/s"}). JFR's {@code jdk.ActiveSetting} events report
 * periods and thresholds in nanoseconds ({@code "10000000 ns"}); configuration files use any unit.
 *
 * <p>Not API: internal to Spanflight.
 */
final class JfrValues {
  private static final Pattern DURATION = Pattern.compile("\\s*(\\d+)\\s*(ns|us|ms|s|m|h|d)\\s*");
  private static final Pattern RATE = Pattern.compile("\\s*(\\d+)\\s*/\\s*(ns|us|ms|s|m|h|d)\\s*");

  private JfrValues() {}

  /** The duration in nanoseconds, or -1 when {@code value} is not a duration (e.g. "everyChunk"). */
  static long nanos(String value) {
    if (value == null) {
      return -1;
    }
    Matcher m = DURATION.matcher(value.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return -1;
    }
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), unitNanos(m.group(2)));
    } catch (ArithmeticException | NumberFormatException e) {
      return -1;
    }
  }

  /** The rate in events per second, or -1 when {@code value} is not a rate. */
  static double perSecond(String value) {
    if (value == null) {
      return -1;
    }
    Matcher m = RATE.matcher(value.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return -1;
    }
    return Long.parseLong(m.group(1)) * 1e9 / unitNanos(m.group(2));
  }

  private static long unitNanos(String unit) {
    switch (unit) {
      case "ns":
        return 1L;
      case "us":
        return 1_000L;
      case "ms":
        return 1_000_000L;
      case "s":
        return 1_000_000_000L;
      case "m":
        return 60_000_000_000L;
      case "h":
        return 3_600_000_000_000L;
      default:
        return 86_400_000_000_000L;
    }
  }

  /** A duration for people: "10 ms", "1500 us". */
  static String describe(long nanos) {
    if (nanos % 1_000_000L == 0) {
      return nanos / 1_000_000L + " ms";
    }
    if (nanos % 1_000L == 0) {
      return nanos / 1_000L + " us";
    }
    return nanos + " ns";
  }
}
