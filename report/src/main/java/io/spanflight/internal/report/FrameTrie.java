package io.spanflight.internal.report;

import io.spanflight.internal.tables.LongIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every distinct call path of a report, merged into one tree: node 0 is the root, every other
 * node is one frame (a method name) under its parent. A stack is then a single number, its leaf
 * node, and the flame graph of any group of samples is this tree weighted by the group's leaf
 * values. The HTML report carries the tree once as two arrays (parent, frame name).
 *
 * <p>Not API: internal to Spanflight.
 */
final class FrameTrie {
  static final int ROOT = 0;

  private final List<String> names = new ArrayList<>();
  private final Map<String, Integer> nameIndex = new HashMap<>();
  private final LongIntMap children = new LongIntMap();
  private int[] parent = new int[1024];
  private int[] frame = new int[1024];
  private int size = 1;

  FrameTrie() {
    parent[ROOT] = -1;
    frame[ROOT] = -1;
  }

  /** The index of a frame name, added if new. */
  int name(String name) {
    Integer index = nameIndex.get(name);
    if (index == null) {
      index = names.size();
      names.add(name);
      nameIndex.put(name, index);
    }
    return index;
  }

  /** The child of {@code node} for frame name {@code name}, added if new. */
  int child(int node, int name) {
    long key = ((long) node << 32) | (name & 0xFFFFFFFFL);
    int child = children.get(key);
    if (child < 0) {
      if (size == parent.length) {
        parent = Arrays.copyOf(parent, size * 2);
        frame = Arrays.copyOf(frame, size * 2);
      }
      child = size++;
      parent[child] = node;
      frame[child] = name;
      children.put(key, child);
    }
    return child;
  }

  int size() {
    return size;
  }

  int parent(int node) {
    return parent[node];
  }

  /** The frame name index of {@code node} (-1 for the root). */
  int frame(int node) {
    return frame[node];
  }

  String frameName(int node) {
    return names.get(frame[node]);
  }

  List<String> names() {
    return names;
  }
}
