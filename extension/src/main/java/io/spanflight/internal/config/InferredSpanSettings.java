package io.spanflight.internal.config;

import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Inferred spans ({@code otel.spanflight.span.inferred*}): which JFR events joined to a sampled
 * span become child spans of it, and the limits that keep them from flooding a trace. They ride
 * on span costs (the held spans leave with their children), so they are on only where span costs
 * are; a bad value of theirs switches span costs off, as the other {@code span.costs} keys do.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param waits monitor, park, socket and file waits become {@code wait ...} spans
 * @param methods traced method calls ({@code otel.spanflight.method.trace}) become method spans
 * @param minDuration waits and calls shorter than this become no span (the sources' own
 *     thresholds apply first)
 * @param maxPerSpan the most inferred children of one span; the rest are counted on the parent
 * @param maxPerSecond the most inferred spans a second in this JVM; the rest are counted on their
 *     parents
 * @param addresses socket wait spans carry the peer's {@code server.address} and {@code server.port}
 * @param paths file wait spans carry {@code file.path} (paths may name users or customers: off by
 *     default)
 */
public record InferredSpanSettings(
    boolean waits, boolean methods, Duration minDuration, int maxPerSpan, int maxPerSecond, boolean addresses,
    boolean paths) {
  public static final String KINDS = "otel.spanflight.span.inferred";
  public static final String MIN_DURATION = "otel.spanflight.span.inferred.min.duration";
  public static final String MAX_PER_SPAN = "otel.spanflight.span.inferred.max.per.span";
  public static final String MAX_PER_SECOND = "otel.spanflight.span.inferred.max.per.second";
  public static final String DETAILS = "otel.spanflight.span.inferred.details";
  public static final String DEFAULT_DETAILS = "address";
  public static final String DEFAULT_KINDS = "waits,methods";
  public static final Duration DEFAULT_MIN_DURATION = Duration.ofMillis(1);
  public static final int DEFAULT_MAX_PER_SPAN = 32;
  public static final int DEFAULT_MAX_PER_SECOND = 500;

  /** Nothing inferred. */
  public static final InferredSpanSettings NONE =
      new InferredSpanSettings(false, false, DEFAULT_MIN_DURATION, DEFAULT_MAX_PER_SPAN, DEFAULT_MAX_PER_SECOND, false,
          false);

  /** True when any kind of event becomes a span. */
  public boolean any() {
    return waits || methods;
  }

  /** Reads the keys, each through {@code collect} (which keeps the error and gives the fallback). */
  static InferredSpanSettings read(Settings s, Collector collect) {
    Set<String> kinds = collect.read(
        () -> s.choices(KINDS, DEFAULT_KINDS, "waits", "methods", "none"), Set.of("waits", "methods"));
    Duration min = collect.read(
        () -> s.duration(MIN_DURATION, DEFAULT_MIN_DURATION, Duration.ZERO, Duration.ofMinutes(1)), DEFAULT_MIN_DURATION);
    int perSpan = collect.read(() -> s.integer(MAX_PER_SPAN, DEFAULT_MAX_PER_SPAN, 1, 1000), DEFAULT_MAX_PER_SPAN);
    int perSecond =
        collect.read(() -> s.integer(MAX_PER_SECOND, DEFAULT_MAX_PER_SECOND, 1, 100_000), DEFAULT_MAX_PER_SECOND);
    Set<String> details = collect.read(() -> s.choices(DETAILS, DEFAULT_DETAILS, "address", "path", "none"), Set.of());
    boolean none = kinds.contains("none");
    boolean noDetails = details.contains("none");
    return new InferredSpanSettings(!none && kinds.contains("waits"), !none && kinds.contains("methods"), min, perSpan,
        perSecond, !noDetails && details.contains("address"), !noDetails && details.contains("path"));
  }

  /** How a key is read: its value, or the fallback with the error kept. */
  interface Collector {
    <T> T read(Supplier<T> reader, T onError);
  }

  @Override
  public String toString() {
    return (waits ? methods ? "waits,methods" : "waits" : methods ? "methods" : "none")
        + " (>=" + minDuration.toMillis() + "ms, " + maxPerSpan + "/span, " + maxPerSecond + "/s)";
  }
}
