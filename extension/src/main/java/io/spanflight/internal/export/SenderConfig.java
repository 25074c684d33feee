package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.export.Compressor;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.HttpSenderConfig;
import io.opentelemetry.sdk.common.export.ProxyOptions;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.spanflight.internal.config.ClientTls;
import io.spanflight.internal.config.OtlpSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;

/**
 * What the agent's OTLP senders are told, for either transport: endpoint, headers, compression,
 * timeout, TLS, and the sender's own retry policy.
 *
 * <p>Retries are shared between two layers. The sender retries within one call (its timeout
 * bounds all attempts) only on retryable <em>status codes</em>: only it sees the HTTP
 * {@code Retry-After} header, which it honours (the public {@code HttpResponse} carries no
 * headers). Connection and I/O failures are not retried by the sender ({@link #RETRY_POLICY}
 * refuses every exception) so that they come straight to the {@link DeliveryQueue}, which retries
 * them across export intervals with its own backoff and counts every request.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SenderConfig implements HttpSenderConfig, GrpcSenderConfig {
  static final String GRPC_METHOD =
      "opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export";
  static final String CONTENT_TYPE = "application/x-protobuf";
  /** The SDK default (5 attempts, 1 s initial, 5 s max, x1.5, jitter 0.8-1.2), exceptions excluded. */
  static final RetryPolicy RETRY_POLICY =
      RetryPolicy.builder().setRetryExceptionPredicate(e -> false).build();
  /**
   * The OTLP Profiles development version request header (gRPC metadata) and the version of the
   * profiles schema we serialize (opentelemetry-proto 1.x {@code v1development}, the first). Since
   * v0.163 the Collector's receiver refuses a malformed, repeated or unsupported one before decoding
   * (HTTP 400, gRPC INVALID_ARGUMENT; dropped here without retry); a missing one counts as 1. Sent
   * exactly once, overriding a configured header of that name, as the Collector's own exporters do.
   */
  static final String PROFILES_VERSION_HEADER = "otlp-profiles-development-version";
  static final String PROFILES_VERSION = "1";
  private static final long MAX_RESPONSE_BODY_BYTES = 4L * 1024 * 1024;

  private final URI endpoint;
  private final Compressor compressor;
  private final Duration timeout;
  private final Map<String, List<String>> headers;
  private final RetryPolicy retryPolicy;
  private final ClientTls tls;
  private final List<String> secrets;

  SenderConfig(OtlpSettings settings, RetryPolicy retryPolicy) {
    this.endpoint = settings.endpoint();
    this.compressor = settings.gzip() ? GzipCompressor.INSTANCE : null;
    this.timeout = settings.timeout();
    Map<String, List<String>> h = new LinkedHashMap<>();
    settings.headers().forEach((k, v) -> {
      if (!k.equalsIgnoreCase(PROFILES_VERSION_HEADER)) {
        h.put(k, Collections.singletonList(v));
      }
    });
    h.put(PROFILES_VERSION_HEADER, Collections.singletonList(PROFILES_VERSION));
    this.headers = Collections.unmodifiableMap(h);
    this.retryPolicy = retryPolicy;
    this.tls = settings.tls();
    this.secrets = settings.secrets();
  }

  /** The settings' secrets, to mask in the senders' and collectors' messages. */
  List<String> secrets() {
    return secrets;
  }

  @Override
  public URI getEndpoint() {
    return endpoint;
  }

  @Override
  public String getFullMethodName() {
    return GRPC_METHOD;
  }

  @Override
  public String getContentType() {
    return CONTENT_TYPE;
  }

  @Override
  public Compressor getCompressor() {
    return compressor;
  }

  @Override
  public Duration getTimeout() {
    return timeout;
  }

  @Override
  public Duration getConnectTimeout() {
    return timeout;
  }

  @Override
  public Supplier<Map<String, List<String>>> getHeadersSupplier() {
    return () -> headers;
  }

  @Override
  public ProxyOptions getProxyOptions() {
    return null;
  }

  @Override
  public RetryPolicy getRetryPolicy() {
    return retryPolicy;
  }

  @Override
  public SSLContext getSslContext() {
    return tls == null ? null : tls.sslContext();
  }

  @Override
  public X509TrustManager getTrustManager() {
    return tls == null ? null : tls.trustManager();
  }

  @Override
  public ExecutorService getExecutorService() {
    return null; // the sender creates and owns its own
  }

  @Override
  public long getMaxResponseBodySize() {
    return MAX_RESPONSE_BODY_BYTES;
  }

  @Override
  public List<String> getEnabledProtocols() {
    return null; // the sender's defaults
  }
}
