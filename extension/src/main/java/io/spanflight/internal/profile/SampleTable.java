package io.spanflight.internal.profile;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The samples of one sample type in one interval, grouped by (stack, link, attribute set): each
 * group keeps the
 * timestamp and value of every sample in it, exported as parallel {@code timestamps_unix_nano}
 * and {@code values}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SampleTable {

  /** What the samples of one group share. */
  private record Key(int stack, int link, int attributeSet) {}

  /** The samples that share one stack, one link and one attribute set. */
  static final class Group {
    final int stack;
    final int link;
    /** Index into {@link DictionaryBuilder#attributeSets}. */
    final int attributeSet;
    long[] timestamps = new long[4];
    long[] values = new long[4];
    int count;

    Group(int stack, int link, int attributeSet) {
      this.stack = stack;
      this.link = link;
      this.attributeSet = attributeSet;
    }

    void add(long epochNanos, long value) {
      if (count == timestamps.length) {
        timestamps = Arrays.copyOf(timestamps, count * 2);
        values = Arrays.copyOf(values, count * 2);
      }
      timestamps[count] = epochNanos;
      values[count] = value;
      count++;
    }
  }

  private final Map<Key, Group> groups = new LinkedHashMap<>();
  private int total;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;

  void add(int stack, int link, int attributeSet, long epochNanos, long value) {
    groups
        .computeIfAbsent(new Key(stack, link, attributeSet), k -> new Group(stack, link, attributeSet))
        .add(epochNanos, value);
    total++;
    minTimestamp = Math.min(minTimestamp, epochNanos);
    maxTimestamp = Math.max(maxTimestamp, epochNanos);
  }

  /** Empties the table, keeping its map's capacity for the next interval. */
  void clear() {
    groups.clear();
    total = 0;
    minTimestamp = Long.MAX_VALUE;
    maxTimestamp = Long.MIN_VALUE;
  }

  Collection<Group> groups() {
    return groups.values();
  }

  int total() {
    return total;
  }

  int linked() {
    int linked = 0;
    for (Group group : groups.values()) {
      if (group.link != 0) {
        linked += group.count;
      }
    }
    return linked;
  }

  long minTimestamp() {
    return minTimestamp;
  }

  long maxTimestamp() {
    return maxTimestamp;
  }
}
