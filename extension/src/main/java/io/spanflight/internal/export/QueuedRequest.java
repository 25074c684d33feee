package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;

/**
 * One request handed to a {@link DeliveryQueue}: its bytes, its result (completed once, when the
 * request is delivered or dropped) and how many sends were started for it.
 *
 * <p>Not thread-safe: the queue touches {@link #startAttempt()} under its lock only.
 *
 * <p>Not API: internal to Spanflight.
 */
final class QueuedRequest {
  final byte[] bytes;
  final CompletableResultCode result = new CompletableResultCode();
  private int attempts;

  QueuedRequest(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Counts one more send started; whether it is a retry (not the request's first send). */
  boolean startAttempt() {
    return attempts++ > 0;
  }

  /** Completes the result if {@code outcome} ends the request: succeeds if delivered, fails if refused. */
  void end(SendOutcome outcome) {
    if (outcome.kind() == SendOutcome.Kind.DELIVERED) {
      result.succeed();
    } else if (outcome.kind() == SendOutcome.Kind.FAILED) {
      result.fail();
    }
  }
}
