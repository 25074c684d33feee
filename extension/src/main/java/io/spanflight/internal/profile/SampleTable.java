package io.spanflight.internal.profile;

import io.spanflight.internal.tables.Capacity;
import io.spanflight.internal.tables.IndexMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The samples of one sample type in one interval, grouped by (stack, link, attribute set): each
 * group keeps the timestamp and value of every sample in it, exported as parallel {@code
 * timestamps_unix_nano} and {@code values}.
 *
 * <p>Kept as columns of primitive arrays (a group index, timestamp and value per sample; a stack,
 * link and attribute set per group) that a cleared table keeps for the next interval (while the
 * interval before needed them: see {@link Capacity}): with a link
 * per span nearly every sample is a group of its own, and a map entry, key, group and two arrays
 * per sample, living an interval, were copied again and again by young collections. {@link
 * #groups} builds the groups as objects once, for the encoders.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SampleTable {
  /** The samples that share one stack, one link and one attribute set, in the order they came. */
  static final class Group {
    final int stack;
    final int link;
    /** Index into {@link DictionaryBuilder#attributeSets}. */
    final int attributeSet;
    final long[] timestamps;
    final long[] values;
    final int count;

    Group(int stack, int link, int attributeSet, int count) {
      this.stack = stack;
      this.link = link;
      this.attributeSet = attributeSet;
      this.timestamps = new long[count];
      this.values = new long[count];
      this.count = count;
    }
  }

  private static final int INITIAL = 64;
  // per sample
  private int[] groupOf = new int[INITIAL];
  private long[] timestamps = new long[INITIAL];
  private long[] values = new long[INITIAL];
  private int total;
  // per group, in order of first sample
  private int[] stacks = new int[INITIAL];
  private int[] links = new int[INITIAL];
  private int[] attributeSets = new int[INITIAL];
  private int[] counts = new int[INITIAL];
  private int groupCount;
  /** Open addressing over the groups: group index + 1 per slot, 0 for an empty slot. */
  private int[] slots = new int[2 * INITIAL];
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
  /** {@link #groups} as built for the samples so far, or null after an add or clear. */
  private List<Group> built;

  void add(int stack, int link, int attributeSet, long epochNanos, long value) {
    int group = groupOf(stack, link, attributeSet);
    if (total == groupOf.length) {
      groupOf = Arrays.copyOf(groupOf, total * 2);
      timestamps = Arrays.copyOf(timestamps, total * 2);
      values = Arrays.copyOf(values, total * 2);
    }
    groupOf[total] = group;
    timestamps[total] = epochNanos;
    values[total] = value;
    total++;
    counts[group]++;
    minTimestamp = Math.min(minTimestamp, epochNanos);
    maxTimestamp = Math.max(maxTimestamp, epochNanos);
    built = null;
  }

  /** The index of the group of (stack, link, attributeSet), added if new. */
  private int groupOf(int stack, int link, int attributeSet) {
    int mask = slots.length - 1;
    int slot = slotOf(stack, link, attributeSet, mask);
    for (int present = slots[slot]; present != 0; present = slots[slot]) {
      int group = present - 1;
      if (stacks[group] == stack && links[group] == link && attributeSets[group] == attributeSet) {
        return group;
      }
      slot = (slot + 1) & mask;
    }
    int group = groupCount++;
    if (group == stacks.length) {
      stacks = Arrays.copyOf(stacks, group * 2);
      links = Arrays.copyOf(links, group * 2);
      attributeSets = Arrays.copyOf(attributeSets, group * 2);
      counts = Arrays.copyOf(counts, group * 2);
    }
    stacks[group] = stack;
    links[group] = link;
    attributeSets[group] = attributeSet;
    counts[group] = 0;
    slots[slot] = group + 1;
    if (2 * groupCount > slots.length) {
      rehash(slots.length * 2);
    }
    return group;
  }

  private void rehash(int size) {
    slots = new int[size];
    int mask = size - 1;
    for (int group = 0; group < groupCount; group++) {
      int slot = slotOf(stacks[group], links[group], attributeSets[group], mask);
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = group + 1;
    }
  }

  private static int slotOf(int stack, int link, int attributeSet, int mask) {
    return IndexMap.spread((stack * 31 + link) * 31 + attributeSet) & mask;
  }

  /** Empties the table, keeping its arrays for the next interval unless they are far too large. */
  void clear() {
    int perSample = Capacity.afterClear(groupOf.length, total, INITIAL);
    if (perSample != groupOf.length) {
      groupOf = new int[perSample];
      timestamps = new long[perSample];
      values = new long[perSample];
    }
    int perGroup = Capacity.afterClear(stacks.length, groupCount, INITIAL);
    if (perGroup != stacks.length) {
      stacks = new int[perGroup];
      links = new int[perGroup];
      attributeSets = new int[perGroup];
      counts = new int[perGroup];
    }
    int slotCount = Capacity.afterClear(slots.length, 2 * groupCount, 2 * INITIAL);
    if (slotCount != slots.length) {
      slots = new int[slotCount];
    } else {
      Arrays.fill(slots, 0);
    }
    total = 0;
    groupCount = 0;
    minTimestamp = Long.MAX_VALUE;
    maxTimestamp = Long.MIN_VALUE;
    built = null;
  }

  /** The groups, in the order of their first samples, each with its samples in the order they came. */
  Collection<Group> groups() {
    if (built == null) {
      List<Group> groups = new ArrayList<>(groupCount);
      for (int group = 0; group < groupCount; group++) {
        groups.add(new Group(stacks[group], links[group], attributeSets[group], counts[group]));
      }
      int[] filled = new int[groupCount];
      for (int i = 0; i < total; i++) {
        int group = groupOf[i];
        Group g = groups.get(group);
        g.timestamps[filled[group]] = timestamps[i];
        g.values[filled[group]++] = values[i];
      }
      built = groups;
    }
    return built;
  }

  int total() {
    return total;
  }

  int linked() {
    int linked = 0;
    for (int group = 0; group < groupCount; group++) {
      if (links[group] != 0) {
        linked += counts[group];
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
