package io.spanflight.internal.report;

import java.util.Arrays;

/**
 * Values summed per leaf node of the {@link FrameTrie}: an open-addressing map from node to a
 * long, so that adding a sample boxes nothing. Iterate with {@link #capacity()}, {@link
 * #nodeAt(int)} (-1 for an empty slot) and {@link #valueAt(int)}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class NodeWeights {
  private int[] nodes = new int[8];
  private long[] values = new long[8];
  private int size;
  private long total;
  private long samples;

  NodeWeights() {
    Arrays.fill(nodes, -1);
  }

  void add(int node, long value, int events) {
    if (2 * (size + 1) > nodes.length) {
      grow();
    }
    int slot = slot(nodes, node);
    if (nodes[slot] < 0) {
      nodes[slot] = node;
      size++;
    }
    values[slot] += value;
    total += value;
    samples += events;
  }

  long get(int node) {
    int slot = slot(nodes, node);
    return nodes[slot] < 0 ? 0 : values[slot];
  }

  /** The sum of all values. */
  long total() {
    return total;
  }

  /** How many samples (or events) were added. */
  long samples() {
    return samples;
  }

  /** How many distinct nodes hold a value. */
  int size() {
    return size;
  }

  int capacity() {
    return nodes.length;
  }

  int nodeAt(int slot) {
    return nodes[slot];
  }

  long valueAt(int slot) {
    return values[slot];
  }

  private static int slot(int[] table, int node) {
    int mask = table.length - 1;
    int slot = (node * 0x9E3779B9) >>> 1 & mask;
    while (table[slot] >= 0 && table[slot] != node) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void grow() {
    int[] oldNodes = nodes;
    long[] oldValues = values;
    nodes = new int[oldNodes.length * 2];
    values = new long[oldNodes.length * 2];
    Arrays.fill(nodes, -1);
    for (int i = 0; i < oldNodes.length; i++) {
      if (oldNodes[i] >= 0) {
        int slot = slot(nodes, oldNodes[i]);
        nodes[slot] = oldNodes[i];
        values[slot] = oldValues[i];
      }
    }
  }
}
