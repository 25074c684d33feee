package io.spanflight.internal.profile;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU samples of one interval, grouped by (stack, link): each group keeps the timestamp of
 * every sample in it, so the exported profile has one value of 1 per timestamp.
 *
 * <p>Not API: internal to Spanflight.
 */
final class CpuSamples {

  /** The samples that share one stack and one link. */
  static final class Group {
    final int stack;
    final int link;
    long[] timestamps = new long[4];
    int count;

    Group(int stack, int link) {
      this.stack = stack;
      this.link = link;
    }

    void add(long epochNanos) {
      if (count == timestamps.length) {
        timestamps = Arrays.copyOf(timestamps, count * 2);
      }
      timestamps[count++] = epochNanos;
    }
  }

  private final Map<Long, Group> groups = new LinkedHashMap<>();
  private int total;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;

  void add(int stack, int link, long epochNanos) {
    long key = ((long) stack << 32) | (link & 0xFFFFFFFFL);
    groups.computeIfAbsent(key, k -> new Group(stack, link)).add(epochNanos);
    total++;
    minTimestamp = Math.min(minTimestamp, epochNanos);
    maxTimestamp = Math.max(maxTimestamp, epochNanos);
  }

  Collection<Group> groups() {
    return groups.values();
  }

  int total() {
    return total;
  }

  long minTimestamp() {
    return minTimestamp;
  }

  long maxTimestamp() {
    return maxTimestamp;
  }
}
