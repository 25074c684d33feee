package io.spanflight.internal.profile;

import io.spanflight.internal.registry.ContextRecord;

/**
 * Collects samples into the current {@link ProfileInterval} (JFR consumer thread) and hands the
 * finished interval over at each export tick (export thread).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ProfileCollector {
  private final boolean linkUnsampled;
  /** Function names shared by the intervals, built once (see {@link FunctionNames}). */
  private final FunctionNames functionNames = new FunctionNames();
  private ProfileInterval current;
  /** An exported interval waiting to be emptied and used again, or null. */
  private ProfileInterval spare;

  /** @param linkUnsampled whether samples of spans that were not sampled link to them */
  public ProfileCollector(boolean linkUnsampled) {
    this.linkUnsampled = linkUnsampled;
    this.current = new ProfileInterval(EpochClock.nowNanos(), linkUnsampled, functionNames);
  }

  /** Links every sample taken in a span to it. */
  public ProfileCollector() {
    this(true);
  }

  /** A sample of {@code stack} (below {@code leaf}, or alone for -1), both interned in {@code stacks}. */
  public synchronized void add(
      SampleType type,
      InternedStacks stacks,
      int leaf,
      int stack,
      ContextRecord link,
      long epochNanos,
      long value) {
    current.add(type, stacks, leaf, stack, link, epochNanos, value);
  }

  /** A sample of one method known by name, with its callers or not; see {@link ProfileInterval#addMethod}. */
  public synchronized void addMethod(
      SampleType type,
      String className,
      String methodName,
      String descriptor,
      StackWalker.StackFrame[] stack,
      ContextRecord link,
      long epochNanos,
      long value) {
    current.addMethod(type, className, methodName, descriptor, stack, link, epochNanos, value);
  }

  /**
   * Returns the interval collected so far and starts a new one (the one last {@linkplain #recycle
   * recycled}, emptied, if there is one).
   */
  public synchronized ProfileInterval takeInterval() {
    ProfileInterval finished = current;
    long now = EpochClock.nowNanos();
    if (spare != null) {
      current = spare;
      spare = null;
      current.startAt(now);
    } else {
      current = new ProfileInterval(now, linkUnsampled, functionNames);
    }
    return finished;
  }

  /**
   * Takes back an interval from {@link #takeInterval} once it has been encoded and nothing reads it
   * any more; the next interval reuses its tables. Two intervals thus take turns, and the
   * dictionary's maps and lists are allocated once instead of every interval. It is emptied at
   * once: kept full until its next use, what it held (sample groups with their arrays, the
   * dictionary's entries) lived another interval, and young collections copied it all that time.
   */
  public synchronized void recycle(ProfileInterval done) {
    if (done != current && done.reusable()) {
      done.empty();
      spare = done;
    }
  }
}
