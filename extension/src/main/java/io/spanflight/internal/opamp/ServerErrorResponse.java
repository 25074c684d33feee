package io.spanflight.internal.opamp;

/**
 * The server refused the last request, OpAMP's {@code ServerErrorResponse}: one of the type
 * constants (another value is kept as it came), its message, and how long to wait before trying
 * again ({@code retry_info.retry_after_nanoseconds}, 0 when the server did not say).
 *
 * <p>Not API: internal to Spanflight.
 */
public record ServerErrorResponse(int type, String message, long retryAfterNanos) {
  public static final int UNKNOWN = 0;
  public static final int BAD_REQUEST = 1;
  public static final int UNAVAILABLE = 2;
}
