package io.spanflight.smoke;

import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.util.List;

/**
 * The gaps between consecutive requests a collector answered with 429 and a {@code Retry-After}:
 * each should be at least that long.
 */
final class RetryAfterGaps {
  private long[] sentMillis = new long[0];

  /** Keeps the arrival times of {@code events} (WireMock lists the newest first). */
  void record(List<ServeEvent> events) {
    sentMillis = events.stream().mapToLong(e -> e.getRequest().getLoggedDate().getTime()).sorted().toArray();
  }

  int requests() {
    return sentMillis.length;
  }

  /** The shortest gap between two consecutive requests, in ms; -1 with fewer than two. */
  long shortestGapMillis() {
    long shortest = -1;
    for (int i = 1; i < sentMillis.length; i++) {
      long gap = sentMillis[i] - sentMillis[i - 1];
      shortest = shortest < 0 ? gap : Math.min(shortest, gap);
    }
    return shortest;
  }

  @Override
  public String toString() {
    return requests() + " requests answered 429 while it lasted, shortest gap between two "
        + shortestGapMillis() + " ms";
  }
}
