package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import java.util.function.Consumer;

/**
 * One attempt to send one encoded {@code ExportProfilesServiceRequest} to a collector. The
 * {@link DeliveryQueue} above it decides about retries, drops and counting.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface ProfileTransport {

  /** A human-readable destination for log lines ("otlp http/protobuf http://..."). */
  String destination();

  /**
   * Starts sending {@code request} and returns at once; {@code done} receives the outcome exactly
   * once, on some other thread or on this one. Never throws.
   */
  void send(byte[] request, Consumer<SendOutcome> done);

  /** Releases connections and threads. */
  CompletableResultCode shutdown();
}
