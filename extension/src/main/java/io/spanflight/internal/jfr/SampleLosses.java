package io.spanflight.internal.jfr;

import io.spanflight.internal.jfr.join.JoinSource;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToLongFunction;
import java.util.logging.Logger;

/**
 * Says when a source loses samples, the partial blindness {@link BlindSources} cannot see: JFR's
 * CPU-time sampler reports the samples it could not keep ({@code jdk.CPUTimeSamplesLost}: a
 * thread's queue of samples was full). The first loss gets one warning line with its share of the
 * source's samples; later losses at most one line every {@value #LINE_EVERY} export intervals (ten
 * minutes at the default interval), with the count since the previous line: a steady loss of a
 * few percent, which the demo service shows, is said without filling the log. The counts since
 * startup are for the self-metrics and the control MBean.
 *
 * <p>Runs on the export thread, once per interval, through {@link BlindSources}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SampleLosses {
  static final int LINE_EVERY = 60;
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final IntToLongFunction lost;
  private final IntToLongFunction delivered;
  private final int watched = JoinSource.WATCHED.size();
  private final long[] lostBefore = new long[watched];
  private final long[] deliveredBefore = new long[watched];
  /** Since the last line: samples lost and delivered, and export intervals passed. */
  private final long[] unsaidLost = new long[watched];
  private final long[] unsaidDelivered = new long[watched];
  private final int[] intervalsSinceLine = new int[watched];

  /**
   * @param lost samples lost since startup, by index in {@link JoinSource#WATCHED}
   * @param delivered events delivered since startup, by the same index
   */
  SampleLosses(IntToLongFunction lost, IntToLongFunction delivered) {
    this.lost = lost;
    this.delivered = delivered;
    Arrays.fill(intervalsSinceLine, LINE_EVERY); // the first loss is said at once
  }

  /** At the end of an export interval of a run that records {@code sources}. */
  void intervalEnded(List<JfrSource> sources) {
    for (JfrSource source : sources) {
      int i = source.watched;
      if (i < 0) {
        continue;
      }
      long lostNow = lost.applyAsLong(i);
      long deliveredNow = delivered.applyAsLong(i);
      unsaidLost[i] += lostNow - lostBefore[i];
      unsaidDelivered[i] += deliveredNow - deliveredBefore[i];
      lostBefore[i] = lostNow;
      deliveredBefore[i] = deliveredNow;
      intervalsSinceLine[i]++;
      if (unsaidLost[i] > 0 && intervalsSinceLine[i] >= LINE_EVERY) {
        say(source, unsaidLost[i], unsaidDelivered[i]);
        unsaidLost[i] = 0;
        unsaidDelivered[i] = 0;
        intervalsSinceLine[i] = 0;
      } else if (unsaidLost[i] == 0 && intervalsSinceLine[i] >= LINE_EVERY) {
        unsaidDelivered[i] = 0; // nothing lost over the whole stretch: start a fresh one
      }
    }
  }

  /** A new run: what the previous run lost or delivered is not this one's. */
  void runStarted() {
    for (int i = 0; i < watched; i++) {
      lostBefore[i] = lost.applyAsLong(i);
      deliveredBefore[i] = delivered.applyAsLong(i);
    }
  }

  /** Samples the watched source {@code index} lost since startup. */
  long lost(int index) {
    return lost.applyAsLong(index);
  }

  private static void say(JfrSource source, long lostCount, long deliveredCount) {
    double share = 100.0 * lostCount / (lostCount + deliveredCount);
    logger.warning(String.format(Locale.ROOT,
        "Spanflight's %s source lost %d %s (%.1f %% of %d) in the last export intervals: JFR could not keep"
            + " these %s events (a thread's queue of samples was full, as with threads long in native code or a"
            + " short period). Its profiles undercount by that share; a longer otel.spanflight.%s.period lowers"
            + " the load. Counted in the self-metric spanflight.source.lost_samples.",
        source.sourceName, lostCount, lostCount == 1 ? "sample" : "samples", share, lostCount + deliveredCount,
        source.eventName, source.sourceName));
  }
}
