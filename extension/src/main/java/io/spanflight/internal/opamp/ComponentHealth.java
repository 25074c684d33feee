package io.spanflight.internal.opamp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The agent's health, or one component's, OpAMP's {@code ComponentHealth}: a tree whose children
 * are named in {@code components} (copied, insertion order kept, may be empty). Times are Unix
 * epoch nanoseconds, 0 for not known; empty strings are not sent. The spec's newer {@code
 * attributes} field is left out on purpose: opamp-go v0.23.0 does not know it.
 *
 * <p>Not API: internal to Spanflight.
 */
public record ComponentHealth(boolean healthy, long startTimeUnixNano, String lastError, String status,
    long statusTimeUnixNano, Map<String, ComponentHealth> components) {
  public ComponentHealth {
    Objects.requireNonNull(lastError, "lastError");
    Objects.requireNonNull(status, "status");
    components = Collections.unmodifiableMap(new LinkedHashMap<>(components));
  }
}
