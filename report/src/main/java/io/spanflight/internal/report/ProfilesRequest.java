package io.spanflight.internal.report;

import java.util.List;
import java.util.Map;

/**
 * One decoded {@code ExportProfilesServiceRequest}: the resource attributes, the profiles with
 * their samples, and the shared dictionary, with every index already checked against its table.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ProfilesRequest {

  /** The shared {@code ProfilesDictionary}, as plain arrays indexed like the tables. */
  static final class Dictionary {
    final String[] strings;
    /** Per function: the index of its name in {@link #strings}. */
    final int[] functionNames;
    /** Per location: the functions of its lines, innermost (inlined) first. */
    final int[][] locationFunctions;
    /** Per stack: location indexes, leaf first. */
    final int[][] stacks;
    final byte[][] linkTraceIds;
    final byte[][] linkSpanIds;
    /** Per attribute: the index of its key in {@link #strings}. */
    final int[] attributeKeys;
    /** Per attribute: its value as text ("" when it has none). */
    final String[] attributeValues;
    /** The frames all stacks expand to: at most this many call-tree nodes are new. */
    final long frames;

    Dictionary(String[] strings, int[] functionNames, int[][] locationFunctions, int[][] stacks,
        byte[][] linkTraceIds, byte[][] linkSpanIds, int[] attributeKeys, String[] attributeValues, long frames) {
      this.strings = strings;
      this.functionNames = functionNames;
      this.locationFunctions = locationFunctions;
      this.stacks = stacks;
      this.linkTraceIds = linkTraceIds;
      this.linkSpanIds = linkSpanIds;
      this.attributeKeys = attributeKeys;
      this.attributeValues = attributeValues;
      this.frames = frames;
    }
  }

  /** One profile: a sample type and its samples as parallel arrays. */
  static final class Profile {
    final String type;
    final String unit;
    final String periodType;
    final String periodUnit;
    final long period;
    final long timeUnixNano;
    final long durationNano;
    final int sampleCount;
    final int[] stack;
    final int[] link;
    /** Per sample: attribute indexes (an empty array when none). */
    final int[][] attributes;
    /** Per sample: the sum of its values (the number of timestamps if it has no values). */
    final long[] value;
    /** Per sample: its earliest timestamp, or 0 when it has none. */
    final long[] firstTimestamp;
    /** Per sample: how many events it stands for (its values or timestamps, at least one). */
    final int[] events;

    Profile(String type, String unit, String periodType, String periodUnit, long period,
        long timeUnixNano, long durationNano, int sampleCount, int[] stack, int[] link,
        int[][] attributes, long[] value, long[] firstTimestamp, int[] events) {
      this.type = type;
      this.unit = unit;
      this.periodType = periodType;
      this.periodUnit = periodUnit;
      this.period = period;
      this.timeUnixNano = timeUnixNano;
      this.durationNano = durationNano;
      this.sampleCount = sampleCount;
      this.stack = stack;
      this.link = link;
      this.attributes = attributes;
      this.value = value;
      this.firstTimestamp = firstTimestamp;
      this.events = events;
    }
  }

  final Map<String, String> resource;
  final List<Profile> profiles;
  final Dictionary dictionary;

  ProfilesRequest(Map<String, String> resource, List<Profile> profiles, Dictionary dictionary) {
    this.resource = resource;
    this.profiles = profiles;
    this.dictionary = dictionary;
  }

}
