package io.spanflight.internal.opamp;

import java.util.Objects;

/**
 * One named file of a configuration map, OpAMP's {@code AgentConfigFile}: its bytes and their
 * content type ({@code ""} when not given). The body is not copied: callers do not change it
 * after handing it over, and {@code equals} compares it by reference, as for any record holding an
 * array.
 *
 * <p>Not API: internal to Spanflight.
 */
public record ConfigFile(byte[] body, String contentType) {
  public ConfigFile {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(contentType, "contentType");
  }
}
