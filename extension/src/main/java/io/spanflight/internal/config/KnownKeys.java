package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every {@code otel.spanflight.*} key Spanflight reads, taken from the reader itself: {@link
 * ConfigReader} reads a configuration in which nothing is set (so the OTLP exporter, the default,
 * is read too) and every key it asks for is known. A key added to the reader is known without a
 * list to keep in step.
 *
 * <p>Not API: internal to Spanflight.
 */
final class KnownKeys {
  static final String PREFIX = "otel.spanflight.";

  private KnownKeys() {}

  /** The known keys, in their normalized form (lower case, dot-separated), sorted. */
  static Set<String> all() {
    ConfigReader reader = new ConfigReader(new Unset());
    reader.read();
    Set<String> ours = new TreeSet<>();
    for (String key : reader.keysAsked()) {
      if (key.startsWith(PREFIX)) {
        ours.add(key);
      }
    }
    return Collections.unmodifiableSet(ours);
  }

  /** A configuration in which nothing is set. */
  private static final class Unset implements ConfigProperties {
    @Override
    public String getString(String name) {
      return null;
    }

    @Override
    public Boolean getBoolean(String name) {
      return null;
    }

    @Override
    public Integer getInt(String name) {
      return null;
    }

    @Override
    public Long getLong(String name) {
      return null;
    }

    @Override
    public Double getDouble(String name) {
      return null;
    }

    @Override
    public Duration getDuration(String name) {
      return null;
    }

    @Override
    public List<String> getList(String name) {
      return List.of();
    }

    @Override
    public Map<String, String> getMap(String name) {
      return Map.of();
    }
  }
}
