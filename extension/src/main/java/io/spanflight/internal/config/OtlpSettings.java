package io.spanflight.internal.config;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The OTLP exporter settings for profiles, following the exporter conventions: each
 * {@code otel.exporter.otlp.profiles.*} key falls back to the generic {@code otel.exporter.otlp.*}.
 * Also the delivery settings of the OTLP exporter ({@code otel.spanflight.export.queue.size},
 * {@code otel.spanflight.export.shutdown.timeout}). Certificate and key files are read here, at
 * startup, so a bad file is refused with its key.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OtlpSettings {
  public static final String QUEUE_SIZE = "otel.spanflight.export.queue.size";
  public static final String SHUTDOWN_TIMEOUT = "otel.spanflight.export.shutdown.timeout";
  public static final int DEFAULT_QUEUE_SIZE = 6;
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);
  public static final String HTTP_PATH = "v1development/profiles";
  public static final String DEFAULT_GRPC_ENDPOINT = "http://localhost:4317";
  public static final String DEFAULT_HTTP_ENDPOINT = "http://localhost:4318/" + HTTP_PATH;

  private static final Logger logger = Logger.getLogger(OtlpSettings.class.getName());
  private static final String PROFILES = "otel.exporter.otlp.profiles.";
  private static final String GENERIC = "otel.exporter.otlp.";
  /** The key infixes of the exporters: generic, ours, and the agent's other signals. */
  private static final List<String> SIGNALS = List.of("", "profiles.", "traces.", "metrics.", "logs.");
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

  private final Protocol protocol;
  private final URI endpoint;
  private final Map<String, String> headers;
  private final boolean gzip;
  private final Duration timeout;
  private final ClientTls tls;
  private final int queueSize;
  private final Duration shutdownTimeout;
  private final List<String> secrets;

  private OtlpSettings(Settings s, ConfigProperties properties, List<String> errors) {
    secrets = readSecrets(s, properties);
    protocol = read(errors, () -> readProtocol(s), Protocol.HTTP_PROTOBUF);
    endpoint =
        read(
            errors,
            () -> readEndpoint(s, protocol),
            URI.create(protocol == Protocol.GRPC ? DEFAULT_GRPC_ENDPOINT : DEFAULT_HTTP_ENDPOINT));
    headers = read(errors, () -> readHeaders(s, properties), Collections.emptyMap());
    gzip = "gzip".equals(read(errors, () -> s.choice(keyInUse(s, "compression"), "none", "none", "gzip"), "none"));
    timeout =
        read(
            errors,
            () ->
                s.duration(
                    keyInUse(s, "timeout"), SpanflightConfig.DEFAULT_OTLP_TIMEOUT, Duration.ofMillis(1), Duration.ofMinutes(10)),
            SpanflightConfig.DEFAULT_OTLP_TIMEOUT);
    tls = read(errors, () -> readTls(s), null);
    queueSize = read(errors, () -> s.integer(QUEUE_SIZE, DEFAULT_QUEUE_SIZE, 1, 1024), DEFAULT_QUEUE_SIZE);
    shutdownTimeout =
        read(
            errors,
            () -> s.duration(SHUTDOWN_TIMEOUT, DEFAULT_SHUTDOWN_TIMEOUT, Duration.ZERO, Duration.ofMinutes(1)),
            DEFAULT_SHUTDOWN_TIMEOUT);
  }

  /**
   * Reads every key; each bad one adds its message to {@code errors} and is replaced by its
   * default, so that one wrong key makes one message.
   */
  static OtlpSettings read(Settings s, ConfigProperties properties, List<String> errors) {
    return new OtlpSettings(s, properties, errors);
  }

  private static <T> T read(List<String> errors, Supplier<T> reader, T onError) {
    try {
      return reader.get();
    } catch (ConfigError e) {
      errors.add(e.getMessage());
      return onError;
    }
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

  private static ClientTls readTls(Settings s) {
    String caKey = keyInUse(s, "certificate");
    String certKey = keyInUse(s, "client.certificate");
    String keyKey = keyInUse(s, "client.key");
    String ca = s.string(caKey, null);
    String cert = s.string(certKey, null);
    String key = s.string(keyKey, null);
    if (ca == null && cert == null && key == null) {
      return null;
    }
    List<X509Certificate> trusted = ca == null ? null : certificates(caKey, ca);
    List<X509Certificate> chain = cert == null ? null : certificates(certKey, cert);
    PrivateKey privateKey = key == null ? null : privateKey(keyKey, key);
    if ((cert == null) != (key == null)) {
      String missing = cert == null ? certKey : keyKey;
      String given = cert == null ? keyKey : certKey;
      throw new ConfigError(missing, "", "a PEM file, because " + given + " is set");
    }
    try {
      return ClientTls.create(trusted, chain, privateKey);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new ConfigError(
          certKey, String.valueOf(cert), "a certificate matching " + keyKey + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static PrivateKey privateKey(String key, String file) {
    return pem(key, file, "a readable PEM file with a PKCS#8 private key (RSA or EC)", ClientTls::privateKey);
  }

  private static List<X509Certificate> certificates(String key, String file) {
    return pem(key, file, "a readable PEM file with X.509 certificates", ClientTls::certificates);
  }

  /** Reads one PEM file of {@code key}'s kind (the parsers of {@link ClientTls}). */
  private interface PemParser<T> {
    T parse(Path pem) throws IOException, GeneralSecurityException;
  }

  /**
   * The message never includes what the parser said about the file's content (the file may hold a
   * key): only the file's path, and the kind of failure.
   */
  private static <T> T pem(String key, String file, String expected, PemParser<T> parser) {
    Path path = pemFile(key, file);
    try {
      return parser.parse(path);
    } catch (IOException e) {
      throw new ConfigError(key, file, expected + ": cannot read it (" + e.getClass().getSimpleName() + ")");
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new ConfigError(key, file, expected + ": its content is not one (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static Path pemFile(String key, String file) {
    try {
      return Paths.get(file);
    } catch (RuntimeException e) {
      throw new ConfigError(key, file, "a file path");
    }
  }

  /** The profiles-specific key when it is set, else the generic one. */
  private static String keyInUse(Settings s, String suffix) {
    return s.string(PROFILES + suffix, null) != null ? PROFILES + suffix : GENERIC + suffix;
  }

  public Protocol protocol() {
    return protocol;
  }

  /** The URL requests go to: the gRPC target, or for HTTP the full URL including the path. */
  public URI endpoint() {
    return endpoint;
  }

  public Map<String, String> headers() {
    return headers;
  }

  /**
   * Every secret the OTLP settings hold, ours and the agent's, as it may appear in a message from
   * a sender or a collector or in the JVM's command line: the user info (whole and each part) and
   * query values of each OTLP endpoint key, and every header value, raw and decoded.
   * {@link Redacted#scrub} masks them in text that did not come from us.
   */
  public List<String> secrets() {
    return secrets;
  }

  private static List<String> readSecrets(Settings s, ConfigProperties properties) {
    List<String> secrets = new java.util.ArrayList<>();
    for (String signal : SIGNALS) {
      String endpoint = s.string(GENERIC + signal + "endpoint", null);
      if (endpoint != null) {
        try {
          URI uri = new URI(endpoint);
          if (uri.getRawUserInfo() != null) {
            addSecret(secrets, uri.getRawUserInfo());
            for (String part : uri.getRawUserInfo().split(":")) {
              addSecret(secrets, part);
            }
          }
          if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
              addSecret(secrets, pair.substring(pair.indexOf('=') + 1));
            }
          }
        } catch (URISyntaxException e) {
          // refused with its key (ours), or the agent's to refuse
        }
      }
      try {
        properties.getMap(GENERIC + signal + "headers").values().forEach(value -> addSecret(secrets, value));
      } catch (RuntimeException e) {
        // malformed: refused with its key (ours), or the agent's to refuse
      }
    }
    secrets.removeIf(String::isEmpty);
    return List.copyOf(new java.util.LinkedHashSet<>(secrets));
  }

  private static void addSecret(List<String> secrets, String raw) {
    secrets.add(raw);
    try {
      secrets.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      // not %-encoded: the raw form is enough
    }
  }

  /** Whether request bodies are gzip-compressed ({@code compression=gzip}). */
  public boolean gzip() {
    return gzip;
  }

  public Duration timeout() {
    return timeout;
  }

  /** The TLS setup from the certificate keys; null to use the JVM's defaults. */
  public ClientTls tls() {
    return tls;
  }

  /** Requests waiting or in flight at most; beyond it the oldest waiting one is dropped. */
  public int queueSize() {
    return queueSize;
  }

  /** How long shutdown may spend delivering what is still queued. */
  public Duration shutdownTimeout() {
    return shutdownTimeout;
  }
}
