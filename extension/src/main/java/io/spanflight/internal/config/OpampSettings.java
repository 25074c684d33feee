package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fleet control over OpAMP ({@code otel.spanflight.opamp.*}): the server Spanflight reports to and
 * takes remote configuration from, and the limits ({@link RemoteLimits}) that no remote
 * configuration may pass. Off unless {@value #ENDPOINT} is set. A bad value switches off fleet
 * control only ({@link #errors()}); the rest of Spanflight runs as set.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param endpoint the server's OpAMP URL (plain HTTP transport), {@code /v1/opamp} when no path is
 *     given; null while fleet control is off
 * @param headers sent with every request (a token, say); values are secrets, never logged
 * @param tls the TLS setup from the certificate keys; null to use the JVM's defaults
 * @param interval how often the client asks the server when it has nothing to report
 * @param timeout how long one request may take
 * @param acceptRemoteConfig false: report only, refuse every remote configuration
 * @param limits what a remote configuration may change, and how far
 * @param errors one message per bad {@code otel.spanflight.opamp.*} setting; any of them leaves
 *     fleet control off
 */
public record OpampSettings(
    URI endpoint,
    Map<String, String> headers,
    ClientTls tls,
    Duration interval,
    Duration timeout,
    boolean acceptRemoteConfig,
    RemoteLimits limits,
    List<String> errors) {
  public static final String PREFIX = "otel.spanflight.opamp.";
  public static final String ENDPOINT = PREFIX + "endpoint";
  public static final String HEADERS = PREFIX + "headers";
  public static final String INTERVAL = PREFIX + "interval";
  public static final String TIMEOUT = PREFIX + "timeout";
  public static final String REMOTE_CONFIG = PREFIX + "remote.config";
  public static final String DEFAULT_PATH = "/v1/opamp";
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  static OpampSettings read(Settings s, ConfigProperties properties) {
    List<String> errors = new ArrayList<>();
    URI endpoint = ConfigError.collect(errors, () -> readEndpoint(s), null);
    Map<String, String> headers = ConfigError.collect(errors, () -> readHeaders(s, properties), Map.of());
    ClientTls tls = ConfigError.collect(
        errors, () -> TlsFiles.read(s, PREFIX + "certificate", PREFIX + "client.certificate", PREFIX + "client.key"), null);
    Duration interval = ConfigError.collect(
        errors, () -> s.duration(INTERVAL, DEFAULT_INTERVAL, Duration.ofSeconds(1), Duration.ofHours(1)), DEFAULT_INTERVAL);
    Duration timeout = ConfigError.collect(
        errors, () -> s.duration(TIMEOUT, DEFAULT_TIMEOUT, Duration.ofMillis(100), Duration.ofMinutes(1)), DEFAULT_TIMEOUT);
    boolean accept = ConfigError.collect(errors, () -> s.bool(REMOTE_CONFIG, true), false);
    RemoteLimits limits = RemoteLimits.read(s, errors);
    return new OpampSettings(endpoint, headers, tls, interval, timeout, accept, limits, List.copyOf(errors));
  }

  /** Whether the client runs: an endpoint is set and every setting of fleet control is valid. */
  public boolean active() {
    return endpoint != null && errors.isEmpty();
  }

  /** The header values: secrets, masked wherever text that did not come from us is logged. */
  public List<String> secrets() {
    return List.copyOf(headers.values());
  }

  private static URI readEndpoint(Settings s) {
    String value = s.string(ENDPOINT, null);
    if (value == null) {
      return null;
    }
    String expected = "a URL like http://opamp-server:4320" + DEFAULT_PATH;
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw new ConfigError(ENDPOINT, Redacted.endpoint(value), expected);
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
      throw new ConfigError(ENDPOINT, Redacted.endpoint(value), expected);
    }
    String path = uri.getRawPath();
    return path == null || path.isEmpty() || path.equals("/") ? uri.resolve(DEFAULT_PATH) : uri;
  }

  private static Map<String, String> readHeaders(Settings s, ConfigProperties properties) {
    String raw = s.string(HEADERS, null);
    if (raw == null) {
      return Collections.emptyMap();
    }
    Map<String, String> decoded = new LinkedHashMap<>();
    try {
      properties.getMap(HEADERS).forEach((k, v) -> decoded.put(k, URLDecoder.decode(v, StandardCharsets.UTF_8)));
    } catch (RuntimeException e) { // a pair without '=', bad %-escapes: the message would quote a secret
      throw new ConfigError(HEADERS, Redacted.headers(raw), "comma-separated key=value pairs, values %-encoded");
    }
    return Collections.unmodifiableMap(decoded);
  }

  /** The endpoint, masked, and the header names: never a secret. */
  @Override
  public String toString() {
    Set<String> names = headers.keySet();
    return endpoint == null ? "off" : Redacted.endpoint(endpoint) + (names.isEmpty() ? "" : " headers " + names);
  }
}
