package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.export.HttpResponse;
import io.opentelemetry.sdk.common.export.HttpSender;
import io.opentelemetry.sdk.common.export.HttpSenderProvider;
import io.spanflight.internal.config.Redacted;
import java.util.Set;

/**
 * OTLP http/protobuf: {@code POST <endpoint>} (normally {@code .../v1development/profiles}) through
 * the agent's own HTTP sender (the SDK's public {@link HttpSenderProvider} SPI), so the drop-in jar
 * bundles no HTTP client.
 *
 * <p>Not API: internal to Spanflight.
 */
final class OtlpHttpTransport {
  /** The OTLP/HTTP retryable statuses; the sender has already honoured Retry-After on them. */
  static final Set<Integer> RETRYABLE_STATUS = Set.of(429, 502, 503, 504);

  private OtlpHttpTransport() {}

  static ProfileTransport create(SenderConfig config) {
    HttpSender sender = SenderProviders.load(HttpSenderProvider.class).createSender(config);
    return new OtlpTransport<>(
        "otlp http/protobuf " + Redacted.endpoint(config.getEndpoint()),
        sender::send,
        sender::shutdown,
        OtlpHttpTransport::classify,
        config.secrets());
  }

  static SendOutcome classify(HttpResponse response) {
    int status = response.getStatusCode();
    return SendOutcome.answered(
        status >= 200 && status < 300,
        response.getResponseBody(),
        "HTTP " + status + " " + response.getStatusMessage(),
        RETRYABLE_STATUS.contains(status));
  }
}
