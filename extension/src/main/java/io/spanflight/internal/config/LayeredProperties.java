package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Settings given as text on top of others: a key of {@code top} (normalized: lower case, dots) is
 * read from it, every other key from {@code base}. Spanflight's readers ask for the run-time keys
 * through {@link #getString} only, so that is the one getter the top layer answers.
 *
 * <p>Not API: internal to Spanflight.
 */
final class LayeredProperties implements ConfigProperties {
  private final ConfigProperties base;
  private final Map<String, String> top;

  LayeredProperties(ConfigProperties base, Map<String, String> top) {
    this.base = base;
    this.top = top;
  }

  @Override
  public String getString(String name) {
    return top.containsKey(name) ? top.get(name) : base.getString(name);
  }

  @Override
  public Boolean getBoolean(String name) {
    return base.getBoolean(name);
  }

  @Override
  public Integer getInt(String name) {
    return base.getInt(name);
  }

  @Override
  public Long getLong(String name) {
    return base.getLong(name);
  }

  @Override
  public Double getDouble(String name) {
    return base.getDouble(name);
  }

  @Override
  public Duration getDuration(String name) {
    return base.getDuration(name);
  }

  @Override
  public List<String> getList(String name) {
    return base.getList(name);
  }

  @Override
  public Map<String, String> getMap(String name) {
    return base.getMap(name);
  }
}
