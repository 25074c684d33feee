package io.spanflight.internal.opamp;

import java.util.Objects;

/**
 * One attribute of an {@link AgentDescription}: OpAMP's {@code KeyValue} whose {@code AnyValue}
 * holds a {@code string_value}, the only kind Spanflight sends.
 *
 * <p>Not API: internal to Spanflight.
 */
public record KeyValue(String key, String value) {
  public KeyValue {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }
}
