package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.export.GrpcResponse;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.spanflight.internal.config.Redacted;
import java.util.EnumSet;
import java.util.Set;

/**
 * OTLP/gRPC: {@code ProfilesService/Export} through the agent's own gRPC sender (the SDK's public
 * {@link GrpcSenderProvider} SPI), so the drop-in jar bundles no HTTP/2 stack.
 *
 * <p>Retryable as the OTLP specification lists them. {@code RESOURCE_EXHAUSTED} is retryable only
 * with retry info, which sits in a trailer the public {@link GrpcResponse} does not expose; like
 * the agent's own sender we retry it (the bounded queue keeps that from piling up).
 *
 * <p>Not API: internal to Spanflight.
 */
final class OtlpGrpcTransport {
  static final Set<GrpcStatusCode> RETRYABLE_STATUS =
      EnumSet.of(
          GrpcStatusCode.CANCELLED,
          GrpcStatusCode.DEADLINE_EXCEEDED,
          GrpcStatusCode.RESOURCE_EXHAUSTED,
          GrpcStatusCode.ABORTED,
          GrpcStatusCode.OUT_OF_RANGE,
          GrpcStatusCode.UNAVAILABLE,
          GrpcStatusCode.DATA_LOSS);

  private OtlpGrpcTransport() {}

  static ProfileTransport create(SenderConfig config) {
    GrpcSender sender = SenderProviders.load(GrpcSenderProvider.class).createSender(config);
    return new OtlpTransport<>(
        "otlp grpc " + Redacted.endpoint(config.getEndpoint()),
        sender::send,
        sender::shutdown,
        OtlpGrpcTransport::classify,
        config.secrets());
  }

  static SendOutcome classify(GrpcResponse response) {
    GrpcStatusCode status = response.getStatusCode();
    return SendOutcome.answered(
        status == GrpcStatusCode.OK,
        response.getResponseMessage(),
        "gRPC " + status + " " + response.getStatusDescription(),
        RETRYABLE_STATUS.contains(status));
  }
}
