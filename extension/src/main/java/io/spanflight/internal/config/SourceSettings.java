package io.spanflight.internal.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One JFR signal that Spanflight can record, as configured: {@code otel.spanflight.<name>.enabled}
 * and its one JFR setting ({@code period}, {@code threshold}, {@code throttle} or {@code filter})
 * under {@code otel.spanflight.<name>.<setting>}. The catalogue below is the single place where
 * sources, their keys and their defaults are defined.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SourceSettings {
  public static final String CPU = "cpu";
  public static final String CPU_TIME = "cputime";
  public static final String NATIVE = "nativemethod";
  public static final String ALLOCATION = "alloc";
  public static final String LOCK = "lock";
  public static final String PARK = "park";
  public static final String SOCKET = "socket";
  public static final String FILE = "file";
  public static final String METHOD_TIMING = "methodtiming";
  public static final String METHOD_TRACE = "methodtrace";
  /** Every source's name, in catalogue order (as {@link #read} lists them). */
  public static final List<String> NAMES =
      List.of(CPU, CPU_TIME, NATIVE, ALLOCATION, LOCK, PARK, SOCKET, FILE, METHOD_TIMING, METHOD_TRACE);

  private static final Pattern RATE = Pattern.compile("\\d+/(ns|us|ms|s|m|h)");
  /** The JDK's method filter syntax: class, class::method, ::method, @annotation; ';'-separated. */
  private static final Pattern METHOD_FILTER =
      Pattern.compile("(@?[\\p{L}_$][\\p{L}\\p{N}_$.]*(::[\\p{L}_$<][\\p{L}\\p{N}_$>]*)?|::[\\p{L}_$<][\\p{L}\\p{N}_$>]*)");

  private final String name;
  private final boolean enabled;
  private final String setting;
  private final String value;

  private SourceSettings(String name, boolean enabled, String setting, String value) {
    this.name = name;
    this.enabled = enabled;
    this.setting = setting;
    this.value = value;
  }

  /**
   * Reads every source; a bad value is added to {@code errors} with its key, and switches off only
   * its source.
   *
   * <p>One CPU source is on by default: the JDK's CPU-time sampler ({@code cputime}) where {@code
   * cpuTimeUsable} says this JVM has it, else the execution sampler ({@code cpu}). The CPU-time
   * sampler takes its samples in a signal handler on the sampled thread and measures CPU time; the
   * execution sampler suspends the threads it samples, from JFR's own thread, and costs more (see
   * docs/overhead.md). A CPU source switched on or off explicitly stays as set. The CPU period a
   * user set ({@code otel.spanflight.cpu.period}) is the CPU-time sampler's too, unless its own
   * ({@code otel.spanflight.cputime.period}) is set: a period chosen before JDK 25 keeps its meaning.
   */
  static List<SourceSettings> read(Settings s, List<String> errors, boolean cpuTimeUsable) {
    List<SourceSettings> sources = new ArrayList<>();
    Duration ms1 = Duration.ofMillis(1);
    Duration s10 = Duration.ofSeconds(10);
    Duration cpuPeriod = Duration.ofMillis(20);
    try {
      cpuPeriod = s.duration(key(CPU, "period"), cpuPeriod, ms1, s10);
    } catch (ConfigError e) {
      // reported once, with the cpu source below; the CPU-time sampler keeps the default
    }
    SourceSettings cpuTime = duration(s, errors, CPU_TIME, cpuTimeUsable, "period", cpuPeriod, ms1, s10);
    boolean cpuTimeRuns = cpuTimeUsable && cpuTime.enabled;
    sources.add(duration(s, errors, CPU, !cpuTimeRuns, "period", Duration.ofMillis(20), ms1, s10));
    sources.add(cpuTime);
    sources.add(duration(s, errors, NATIVE, false, "period", Duration.ofMillis(20), ms1, s10));
    // allocation is a setting away: its JFR event is the visible part of the defaults' cost
    // (docs/overhead.md#what-each-source-costs)
    sources.add(rate(s, errors, ALLOCATION, false, "throttle", "150/s"));
    Duration zero = Duration.ZERO;
    Duration hour = Duration.ofHours(1);
    sources.add(duration(s, errors, LOCK, true, "threshold", Duration.ofMillis(20), zero, hour));
    sources.add(duration(s, errors, PARK, true, "threshold", Duration.ofMillis(20), zero, hour));
    sources.add(duration(s, errors, SOCKET, true, "threshold", Duration.ofMillis(20), zero, hour));
    sources.add(duration(s, errors, FILE, true, "threshold", Duration.ofMillis(20), zero, hour));
    sources.add(filter(s, errors, METHOD_TIMING));
    sources.add(filter(s, errors, METHOD_TRACE));
    return sources;
  }

  /**
   * Whether the JDK's CPU-time sampler ({@code jdk.CPUTimeSample}, JEP 509) can be the default CPU
   * source: JDK 25 or later on Linux (the only system it samples on), and no cap to the JDK's
   * {@code default.jfc}, which leaves it off.
   */
  public static boolean cpuTimeUsable(int jdkFeature, String osName, boolean capAtDefaultJfc) {
    return jdkFeature >= 25 && osName != null && osName.toLowerCase(java.util.Locale.ROOT).startsWith("linux")
        && !capAtDefaultJfc;
  }

  /** {@link #cpuTimeUsable(int, String, boolean)} for this JVM. */
  static boolean cpuTimeUsableHere(boolean capAtDefaultJfc) {
    return cpuTimeUsable(Runtime.version().feature(), System.getProperty("os.name"), capAtDefaultJfc);
  }

  private static String key(String name, String suffix) {
    return "otel.spanflight." + name + "." + suffix;
  }

  private static boolean enabled(Settings s, List<String> errors, String name, boolean byDefault) {
    try {
      return s.bool(key(name, "enabled"), byDefault);
    } catch (ConfigError e) {
      errors.add(e.getMessage());
      return false;
    }
  }

  private static SourceSettings duration(
      Settings s, List<String> errors, String name, boolean on, String setting, Duration byDefault, Duration min, Duration max) {
    boolean enabled = enabled(s, errors, name, on);
    try {
      Duration d = s.duration(key(name, setting), byDefault, min, max);
      return new SourceSettings(name, enabled, setting, d.toMillis() + " ms");
    } catch (ConfigError e) {
      errors.add(e.getMessage());
      return new SourceSettings(name, false, setting, "");
    }
  }

  private static SourceSettings rate(
      Settings s, List<String> errors, String name, boolean on, String setting, String byDefault) {
    boolean enabled = enabled(s, errors, name, on);
    String value = s.string(key(name, setting), byDefault);
    if (!RATE.matcher(value).matches() || !fitsInLong(value.substring(0, value.indexOf('/')))) {
      errors.add(new ConfigError(key(name, setting), value, "a rate like 150/s or 10/ms").getMessage());
      return new SourceSettings(name, false, setting, "");
    }
    return new SourceSettings(name, enabled, setting, value);
  }

  private static boolean fitsInLong(String digits) {
    try {
      Long.parseLong(digits);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Method timing and tracing are on when a filter is given, unless {@code enabled=false}; a
   * wrong {@code enabled} value is refused like any other source's.
   */
  private static SourceSettings filter(Settings s, List<String> errors, String name) {
    boolean enabled = enabled(s, errors, name, true);
    String value = s.string(key(name, "filter"), "");
    try {
      SourceSettings checked = methodFilter(name, value);
      return new SourceSettings(name, enabled && checked.enabled, "filter", value);
    } catch (ConfigError e) {
      errors.add(e.getMessage());
      return new SourceSettings(name, false, "filter", "");
    }
  }

  /**
   * The source {@code name} ({@link #METHOD_TIMING} or {@link #METHOD_TRACE}) with {@code filter},
   * checked as at startup (also for a filter set at run time): on when the filter is not empty.
   *
   * @throws ConfigError naming the key, the value and the expected form
   */
  public static SourceSettings methodFilter(String name, String filter) {
    String value = filter == null ? "" : filter;
    for (String part : value.split(";", -1)) { // -1: an empty last filter is refused too
      if (!value.isEmpty() && !METHOD_FILTER.matcher(part.trim()).matches()) {
        throw new ConfigError(
            key(name, "filter"),
            value,
            "';'-separated JDK method filters: com.example.Foo, com.example.Foo::bar, ::bar or @com.example.Annotation");
      }
    }
    return new SourceSettings(name, !value.isEmpty(), "filter", value);
  }

  public String name() {
    return name;
  }

  public boolean enabled() {
    return enabled;
  }

  /** The JFR setting this source's value goes to: period, threshold, throttle or filter. */
  public String setting() {
    return setting;
  }

  /** The value in JFR's own syntax ("20 ms", "150/s", "com.example.Foo::bar"). */
  public String value() {
    return value;
  }

  /** The value as nanoseconds, for period and threshold settings. */
  public long nanos() {
    return Long.parseLong(value.substring(0, value.indexOf(' '))) * 1_000_000L;
  }

  @Override
  public String toString() {
    return name + (enabled ? "(" + setting + "=" + value + ")" : "(off)");
  }
}
