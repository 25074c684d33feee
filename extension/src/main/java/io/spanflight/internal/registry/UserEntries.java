package io.spanflight.internal.registry;

import java.util.Arrays;

/**
 * The entries of a user-defined context ({@code io.spanflight.SpanflightContext}) as they travel
 * in the OpenTelemetry context: {key, value, key, value...}, compared by content, so equal entries
 * share one interned context.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class UserEntries {
  private final String[] pairs;
  private final int hash;

  /** @param pairs {key, value...}, already checked by the API; not copied, must not change */
  public UserEntries(String[] pairs) {
    this.pairs = pairs;
    this.hash = Arrays.hashCode(pairs);
  }

  /** Do not modify. */
  public String[] pairs() {
    return pairs;
  }

  public boolean isEmpty() {
    return pairs.length == 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UserEntries && hash == ((UserEntries) o).hash && Arrays.equals(pairs, ((UserEntries) o).pairs);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
