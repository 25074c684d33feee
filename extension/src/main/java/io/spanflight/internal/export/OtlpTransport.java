package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MessageWriter;
import io.spanflight.internal.config.Redacted;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link ProfileTransport} over one of the agent's OTLP senders: hands the request to the
 * sender, turns its response into a {@link SendOutcome} with the protocol's classification, and
 * any failure to reach the collector into a retryable outcome. The agent's senders run inside the
 * agent's class loader with instrumentation suppressed, so sending creates no span.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param <R> the sender's response type
 */
final class OtlpTransport<R> implements ProfileTransport {
  /** The shape shared by {@code HttpSender.send} and {@code GrpcSender.send}. */
  interface Send<R> {
    void send(MessageWriter body, Consumer<R> onResponse, Consumer<Throwable> onError);
  }

  private final String destination;
  private final Send<R> send;
  private final Supplier<CompletableResultCode> shutdown;
  private final Function<R, SendOutcome> classify;
  private final List<String> secrets;

  /**
   * {@code destination} must show no secret (see {@link Redacted#endpoint}); {@code secrets} are
   * masked in every failure description, as senders and collectors may quote URLs or headers.
   */
  OtlpTransport(
      String destination,
      Send<R> send,
      Supplier<CompletableResultCode> shutdown,
      Function<R, SendOutcome> classify,
      List<String> secrets) {
    this.destination = destination;
    this.send = send;
    this.shutdown = shutdown;
    this.classify = classify;
    this.secrets = secrets;
  }

  @Override
  public String destination() {
    return destination;
  }

  @Override
  public void send(byte[] request, Consumer<SendOutcome> done) {
    try {
      send.send(
          new RequestBody(request),
          response -> done.accept(scrubbed(classify.apply(response))),
          error -> done.accept(SendOutcome.retryable(Redacted.scrub(describe(error), secrets))));
    } catch (RuntimeException e) {
      done.accept(SendOutcome.retryable(Redacted.scrub(describe(e), secrets)));
    }
  }

  private SendOutcome scrubbed(SendOutcome outcome) {
    String description = Redacted.scrub(outcome.description(), secrets);
    return description.equals(outcome.description()) ? outcome : outcome.describedAs(description);
  }

  @Override
  public CompletableResultCode shutdown() {
    return shutdown.get();
  }

  /** A one-line description of a send failure: its type and message, and its cause's. */
  static String describe(Throwable error) {
    StringBuilder s = new StringBuilder(error.getClass().getSimpleName());
    if (error.getMessage() != null) {
      s.append(": ").append(error.getMessage());
    }
    Throwable cause = error.getCause();
    if (cause != null && cause != error) {
      s.append(" (").append(cause.getClass().getSimpleName());
      if (cause.getMessage() != null) {
        s.append(": ").append(cause.getMessage());
      }
      s.append(')');
    }
    return s.toString();
  }
}
