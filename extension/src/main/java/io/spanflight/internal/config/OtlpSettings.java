package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;

/**
 * The OTLP exporter settings for profiles, following the exporter conventions: each
 * {@code otel.exporter.otlp.profiles.*} key falls back to the generic {@code otel.exporter.otlp.*}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OtlpSettings {
  private static final String PROFILES = "otel.exporter.otlp.profiles.";
  private static final String GENERIC = "otel.exporter.otlp.";

  private final URI endpoint;
  private final Map<String, String> headers;
  private final Duration timeout;
  private final String protocol;

  private OtlpSettings(URI endpoint, Map<String, String> headers, Duration timeout, String protocol) {
    this.endpoint = endpoint;
    this.headers = headers;
    this.timeout = timeout;
    this.protocol = protocol;
  }

  static OtlpSettings read(Settings s, ConfigProperties properties) {
    String endpointKey = keyInUse(s, "endpoint");
    String endpointValue = s.string(endpointKey, SpanflightConfig.DEFAULT_OTLP_ENDPOINT);
    URI endpoint;
    try {
      endpoint = new URI(endpointValue);
    } catch (URISyntaxException e) {
      throw new ConfigError(endpointKey, endpointValue, "a URL like http://collector:4317");
    }
    if (!("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme()))
        || endpoint.getHost() == null) {
      throw new ConfigError(endpointKey, endpointValue, "a URL like http://collector:4317");
    }
    Map<String, String> headers = properties.getMap(PROFILES + "headers");
    if (headers.isEmpty()) {
      headers = properties.getMap(GENERIC + "headers");
    }
    Duration timeout =
        s.duration(
            keyInUse(s, "timeout"),
            SpanflightConfig.DEFAULT_OTLP_TIMEOUT,
            Duration.ofMillis(1),
            Duration.ofMinutes(10));
    String protocol = s.string(keyInUse(s, "protocol"), "grpc");
    return new OtlpSettings(endpoint, Collections.unmodifiableMap(headers), timeout, protocol);
  }

  /** The profiles-specific key when it is set, else the generic one. */
  private static String keyInUse(Settings s, String suffix) {
    return s.string(PROFILES + suffix, null) != null ? PROFILES + suffix : GENERIC + suffix;
  }

  public URI endpoint() {
    return endpoint;
  }

  public Map<String, String> headers() {
    return headers;
  }

  public Duration timeout() {
    return timeout;
  }

  /** The protocol the user asked for; this version sends profiles over gRPC only. */
  public String protocol() {
    return protocol;
  }
}
