package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The OTLP exporter settings for profiles, following the exporter conventions: each
 * {@code otel.exporter.otlp.profiles.*} key falls back to the generic {@code otel.exporter.otlp.*}.
 * Also the delivery settings of the OTLP exporter ({@code otel.spanflight.export.queue.size},
 * {@code otel.spanflight.export.shutdown.timeout}). Certificate and key files are read here, at
 * startup ({@link TlsFiles}), so a bad file is refused with its key.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param endpoint the URL requests go to: the gRPC target, or for HTTP the full URL including the
 *     path
 * @param gzip whether request bodies are gzip-compressed ({@code compression=gzip})
 * @param tls the TLS setup from the certificate keys; null to use the JVM's defaults
 * @param queueSize requests waiting or in flight at most; beyond it the oldest waiting one is
 *     dropped
 * @param shutdownTimeout how long shutdown may spend delivering what is still queued
 * @param secrets every secret the OTLP settings hold, ours and the agent's ({@link OtlpSecrets});
 *     {@link Redacted#scrub} masks them in text that did not come from us
 */
public record OtlpSettings(
    Protocol protocol,
    URI endpoint,
    Map<String, String> headers,
    boolean gzip,
    Duration timeout,
    ClientTls tls,
    int queueSize,
    Duration shutdownTimeout,
    List<String> secrets) {
  public static final String QUEUE_SIZE = "otel.spanflight.export.queue.size";
  public static final String SHUTDOWN_TIMEOUT = "otel.spanflight.export.shutdown.timeout";
  public static final int DEFAULT_QUEUE_SIZE = 6;
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);
  public static final String HTTP_PATH = "v1development/profiles";
  public static final String DEFAULT_GRPC_ENDPOINT = "http://localhost:4317";
  public static final String DEFAULT_HTTP_ENDPOINT = "http://localhost:4318/" + HTTP_PATH;
  static final String GENERIC = "otel.exporter.otlp.";

  private static final Logger logger = Logger.getLogger(OtlpSettings.class.getName());
  private static final String PROFILES = "otel.exporter.otlp.profiles.";
  private static final String URL_FORM = "a URL like http://collector:4317";

  /** How requests travel. */
  public enum Protocol {
    GRPC("grpc"),
    HTTP_PROTOBUF("http/protobuf");

    private final String value;

    Protocol(String value) {
      this.value = value;
    }

    @Override
    public String toString() {
      return value;
    }
  }

  /**
   * Reads every key; each bad one adds its message to {@code errors} and is replaced by its
   * default, so that one wrong key makes one message.
   */
  static OtlpSettings read(Settings s, ConfigProperties properties, List<String> errors) {
    List<String> secrets = OtlpSecrets.read(s, properties);
    Protocol protocol = ConfigError.collect(errors, () -> readProtocol(s), Protocol.HTTP_PROTOBUF);
    URI endpoint =
        ConfigError.collect(
            errors,
            () -> readEndpoint(s, protocol),
            URI.create(protocol == Protocol.GRPC ? DEFAULT_GRPC_ENDPOINT : DEFAULT_HTTP_ENDPOINT));
    Map<String, String> headers =
        ConfigError.collect(errors, () -> readHeaders(s, properties), Collections.emptyMap());
    String compression =
        ConfigError.collect(errors, () -> s.choice(keyInUse(s, "compression"), "none", "none", "gzip"), "none");
    Duration timeout =
        ConfigError.collect(
            errors,
            () ->
                s.duration(
                    keyInUse(s, "timeout"), SpanflightConfig.DEFAULT_OTLP_TIMEOUT, Duration.ofMillis(1), Duration.ofMinutes(10)),
            SpanflightConfig.DEFAULT_OTLP_TIMEOUT);
    ClientTls tls = ConfigError.collect(errors, () -> TlsFiles.read(s), null);
    int queueSize =
        ConfigError.collect(errors, () -> s.integer(QUEUE_SIZE, DEFAULT_QUEUE_SIZE, 1, 1024), DEFAULT_QUEUE_SIZE);
    Duration shutdownTimeout =
        ConfigError.collect(
            errors,
            () -> s.duration(SHUTDOWN_TIMEOUT, DEFAULT_SHUTDOWN_TIMEOUT, Duration.ZERO, Duration.ofMinutes(1)),
            DEFAULT_SHUTDOWN_TIMEOUT);
    return new OtlpSettings(
        protocol, endpoint, headers, "gzip".equals(compression), timeout, tls, queueSize, shutdownTimeout, secrets);
  }

  /**
   * {@code grpc} or {@code http/protobuf} (the OTLP default). {@code http/json} in the generic key
   * is meant for the agent's other signals: profiles then go as http/protobuf, with a warning.
   */
  private static Protocol readProtocol(Settings s) {
    String key = keyInUse(s, "protocol");
    String given = s.string(key, Protocol.HTTP_PROTOBUF.value);
    String value = given.toLowerCase(Locale.ROOT);
    if (value.equals(Protocol.GRPC.value)) {
      return Protocol.GRPC;
    }
    if (value.equals(Protocol.HTTP_PROTOBUF.value)) {
      return Protocol.HTTP_PROTOBUF;
    }
    if (value.equals("http/json") && key.startsWith(GENERIC) && !key.startsWith(PROFILES)) {
      logger.warning(
          "Spanflight sends profiles as http/protobuf: " + key + "=http/json applies to the"
              + " agent's other signals only (set " + PROFILES + "protocol to choose for profiles)");
      return Protocol.HTTP_PROTOBUF;
    }
    throw new ConfigError(key, given, "grpc or http/protobuf");
  }

  /**
   * gRPC: the endpoint as given. HTTP: the profiles key is the full URL; the generic key is a base
   * URL to which {@code /v1development/profiles} is appended, as for the other signals.
   */
  private static URI readEndpoint(Settings s, Protocol protocol) {
    String key = keyInUse(s, "endpoint");
    String value = s.string(key, null);
    if (value == null) {
      return URI.create(protocol == Protocol.GRPC ? DEFAULT_GRPC_ENDPOINT : DEFAULT_HTTP_ENDPOINT);
    }
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw new ConfigError(key, Redacted.endpoint(value), URL_FORM);
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
      throw new ConfigError(key, Redacted.endpoint(value), URL_FORM);
    }
    if (protocol == Protocol.HTTP_PROTOBUF && key.startsWith(GENERIC) && !key.startsWith(PROFILES)) {
      return URI.create(value.endsWith("/") ? value + HTTP_PATH : value + "/" + HTTP_PATH);
    }
    return uri;
  }

  private static Map<String, String> readHeaders(Settings s, ConfigProperties properties) {
    String key = keyInUse(s, "headers");
    String raw = s.string(key, null);
    if (raw == null) {
      return Collections.emptyMap();
    }
    Map<String, String> decoded = new LinkedHashMap<>();
    try {
      properties
          .getMap(key)
          .forEach((k, v) -> decoded.put(k, URLDecoder.decode(v, StandardCharsets.UTF_8)));
    } catch (RuntimeException e) { // ConfigurationException for a pair without '=', bad %-escapes
      // neither the value nor the exception's message (which quotes it) is shown: values are secrets
      throw new ConfigError(key, Redacted.headers(raw), "comma-separated key=value pairs, values %-encoded");
    }
    return Collections.unmodifiableMap(decoded);
  }

  /** The profiles-specific key when it is set, else the generic one. */
  static String keyInUse(Settings s, String suffix) {
    return s.string(PROFILES + suffix, null) != null ? PROFILES + suffix : GENERIC + suffix;
  }

  /** The protocol and the endpoint, masked: never the settings' secrets. */
  @Override
  public String toString() {
    return protocol + " " + Redacted.endpoint(endpoint);
  }
}
