package io.spanflight.internal.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The samples of one endpoint, trace or span: per sample type, their values summed per leaf node
 * of the {@link FrameTrie}, and the earliest sample time.
 *
 * <p>Not API: internal to Spanflight.
 */
class SampleGroup {
  final String name;
  private final List<NodeWeights> byType = new ArrayList<>();
  private long firstTimestamp = Long.MAX_VALUE;

  SampleGroup(String name) {
    this.name = name;
  }

  /** Adds {@code events} samples (or events) whose values sum to {@code value}. */
  void add(int type, int leaf, long value, int events, long timestamp) {
    weights(type).add(leaf, value, events);
    if (timestamp > 0 && timestamp < firstTimestamp) {
      firstTimestamp = timestamp;
    }
  }

  /** The weights of sample type {@code type}, created empty if absent. */
  NodeWeights weights(int type) {
    while (byType.size() <= type) {
      byType.add(null);
    }
    NodeWeights weights = byType.get(type);
    if (weights == null) {
      weights = new NodeWeights();
      byType.set(type, weights);
    }
    return weights;
  }

  /** The weights of sample type {@code type}, or null if the group has none. */
  NodeWeights weightsOrNull(int type) {
    return type < byType.size() ? byType.get(type) : null;
  }

  long total(int type) {
    NodeWeights weights = weightsOrNull(type);
    return weights == null ? 0 : weights.total();
  }

  long samples(int type) {
    NodeWeights weights = weightsOrNull(type);
    return weights == null ? 0 : weights.samples();
  }

  /** The number of sample types slots (some may be empty). */
  int typeSlots() {
    return byType.size();
  }

  /** Epoch nanoseconds of the earliest sample, or 0 if none had a timestamp. */
  long firstTimestamp() {
    return firstTimestamp == Long.MAX_VALUE ? 0 : firstTimestamp;
  }
}
