package io.spanflight.smoke.app.propagation;

/**
 * One propagation path of the accuracy suite: how a request's work travels from the thread that
 * holds its SERVER span to the threads that burn the CPU. Implementations write no context code:
 * the OpenTelemetry agent alone must carry the span (and open the {@code @WithSpan} child spans).
 */
public interface Scenario {
  /** Pieces each request's work is cut into, so that threads switch between spans often. */
  int CHUNKS = 4;

  /** The URL path segment, such as {@code fixed-pool}. */
  String name();

  /** The oldest Java feature release that has what the scenario uses. */
  default int minFeature() {
    return 17;
  }

  /**
   * Runs request {@code id}'s work, about {@code millis} ms of CPU in {@link RequestTag#burn},
   * on the thread that received the request (inside its SERVER span); returns when all is done.
   */
  long handle(int id, long millis) throws Exception;

  /** The share of a request's {@code millis} one chunk gets. */
  static long chunk(long millis) {
    return Math.max(1, millis / CHUNKS);
  }
}
