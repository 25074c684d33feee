package io.spanflight.internal.registry;

/**
 * Where a thread that resolves ids uses the records it got: from {@link #open} to {@link
 * #close}. Records are used again for later spans ({@link ContextRecord}); pruning hands a
 * retired record's slot out again only once every window that was open when it was retired has
 * closed, so a record is never redefined while a join still reads it. One window per reading
 * thread; a window is open for one event at a time, a few microseconds.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ReadWindow {
  private static final int CLOSED = -1;

  private final ContextRegistry registry;
  /** The registry epoch when the window was opened, or {@link #CLOSED}. */
  private volatile int openedIn = CLOSED;

  ReadWindow(ContextRegistry registry) {
    this.registry = registry;
  }

  /** Before resolving ids. A volatile write, then the reads it guards. */
  public void open() {
    openedIn = registry.epoch();
  }

  /** When done with every record resolved since {@link #open}. */
  public void close() {
    openedIn = CLOSED;
  }

  /**
   * Whether this window holds no record retired before epoch {@code epoch}: it is closed, or was
   * opened after the prune that ended that epoch (and then found those records retired).
   */
  boolean clearOfEpochsBefore(int epoch) {
    int opened = openedIn;
    return opened == CLOSED || opened >= epoch;
  }
}
