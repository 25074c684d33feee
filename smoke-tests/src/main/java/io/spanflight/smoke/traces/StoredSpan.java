package io.spanflight.smoke.traces;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One span as a tracing backend stored it and gave it back (read from OTLP/JSON by {@link
 * OtlpJsonSpans}): ids as lowercase hex ({@code parentSpanId} empty for a root), times in epoch
 * nanoseconds, attribute values as {@code String}, {@code Long}, {@code Boolean}, {@code Double}
 * or a {@code List} of those, and the attributes of the resource it came with.
 */
public record StoredSpan(String traceId, String spanId, String parentSpanId, String name, Kind kind,
    long startEpochNanos, long endEpochNanos, Map<String, Object> attributes, Map<String, Object> resource) {

  /** OTLP's span kinds, in the order of their numbers (0 = unspecified). */
  public enum Kind {
    UNSPECIFIED, INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER;

    /** From OTLP/JSON: the number ({@code 2}) or the name ({@code SPAN_KIND_SERVER}). */
    static Kind of(Object value) {
      if (value == null) {
        return UNSPECIFIED;
      }
      if (value instanceof Number number) {
        int ordinal = number.intValue();
        return ordinal >= 0 && ordinal < values().length ? values()[ordinal] : UNSPECIFIED;
      }
      String name = value.toString().toUpperCase(Locale.ROOT).replace("SPAN_KIND_", "");
      for (Kind kind : values()) {
        if (kind.name().equals(name)) {
          return kind;
        }
      }
      return UNSPECIFIED;
    }
  }

  public StoredSpan {
    attributes = Map.copyOf(attributes);
    resource = Map.copyOf(resource);
  }

  /** Whether it names a parent (which may or may not be in the same stored trace). */
  public boolean hasParent() {
    return !parentSpanId.isEmpty();
  }

  public long durationNanos() {
    return endEpochNanos - startEpochNanos;
  }

  public boolean hasAttribute(String key) {
    return attributes.containsKey(key);
  }

  public Optional<Object> attribute(String key) {
    return Optional.ofNullable(attributes.get(key));
  }

  /** The attribute as a string, if it is one. */
  public Optional<String> stringAttribute(String key) {
    return attribute(key).filter(String.class::isInstance).map(String.class::cast);
  }

  /** The attribute as a long, if it is an integer. */
  public Optional<Long> longAttribute(String key) {
    return attribute(key).filter(Long.class::isInstance).map(Long.class::cast);
  }

  /** The attribute as a boolean, if it is one. */
  public Optional<Boolean> booleanAttribute(String key) {
    return attribute(key).filter(Boolean.class::isInstance).map(Boolean.class::cast);
  }

  /** The resource's {@code service.name}, or empty. */
  public String serviceName() {
    Object name = resource.get("service.name");
    return name == null ? "" : name.toString();
  }

  /**
   * Whether this span lies inside {@code other}'s start and end, each bound widened by
   * {@code toleranceNanos} (the precision of the clocks the two were timed with).
   */
  public boolean liesWithin(StoredSpan other, long toleranceNanos) {
    return startEpochNanos >= other.startEpochNanos - toleranceNanos
        && endEpochNanos <= other.endEpochNanos + toleranceNanos;
  }

  /** One line for failure messages: name, kind, ids, duration and the number of attributes. */
  public String describe() {
    return String.format(Locale.ROOT, "%s [%s] span %s parent %s, %.3f ms, %d attributes", name, kind, spanId,
        hasParent() ? parentSpanId : "-", durationNanos() / 1e6, attributes.size());
  }
}
