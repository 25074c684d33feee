package io.spanflight.internal.registry;

/**
 * A recorded span between its start and its end, as {@link LocalRoots} tracks it: its local root,
 * and the record the registry last interned it as. A switch to the span finds the record here,
 * with the one map lookup {@link LocalRoots} makes anyway, instead of in a key map of the
 * registry's own: a span's first switch stores one reference, its end removes one map entry, and
 * no second map is kept.
 *
 * <p>The record is a hint, never trusted alone: the registry uses its id only while the record
 * still has this object as its key (see {@link ContextRegistry#currentId}), so a record that was
 * retired, or defined anew for another span, makes the switch intern anew.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class LiveSpan {
  private final LocalRoot root;
  /** Whether this span is its local root (the first span of its trace in this process). */
  private final boolean isLocalRoot;
  /** Null until first interned; written racily (any record that stands for the span will do). */
  private volatile ContextRecord record;

  LiveSpan(LocalRoot root, boolean isLocalRoot) {
    this.root = root;
    this.isLocalRoot = isLocalRoot;
  }

  LocalRoot root() {
    return root;
  }

  boolean isLocalRoot() {
    return isLocalRoot;
  }

  ContextRecord record() {
    return record;
  }

  void record(ContextRecord record) {
    this.record = record;
  }
}
