package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.spanflight.internal.config.OtlpSettings;
import java.time.Duration;

/**
 * The OTLP profiles exporter as configured: the transport the protocol names (gRPC or
 * http/protobuf, through the agent's own senders) behind a {@link DeliveryQueue}.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OtlpProfileExporters {
  /** How much longer than the sender's own timeout an attempt may take before it is given up. */
  static final Duration ATTEMPT_GRACE = Duration.ofSeconds(5);

  private OtlpProfileExporters() {}

  /** Throws IllegalStateException when the agent offers no sender for the protocol. */
  public static DeliveryQueue create(OtlpSettings settings) {
    return DeliveryQueue.builder(transport(settings, SenderConfig.RETRY_POLICY))
        .setCapacity(settings.queueSize())
        .setAttemptTimeout(settings.timeout().plus(ATTEMPT_GRACE))
        .setShutdownTimeout(settings.shutdownTimeout())
        .build();
  }

  /** The transport alone, with the sender's in-call retry policy given (tests shorten it). */
  static ProfileTransport transport(OtlpSettings settings, RetryPolicy senderRetries) {
    SenderConfig config = new SenderConfig(settings, senderRetries);
    return settings.protocol() == OtlpSettings.Protocol.GRPC
        ? OtlpGrpcTransport.create(config)
        : OtlpHttpTransport.create(config);
  }
}
