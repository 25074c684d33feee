package io.spanflight.internal.bridge;

/**
 * Where a context switch goes: one call per switch from the application thread, and a drain that
 * a single background thread calls to move the switches into timelines.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface ContextBridge {

  /** {@link #define}'s attribute set for attributes that belong to the one context defined. */
  int OWN_ATTRIBUTES = -1;

  /** Shared attribute sets a bridge keeps: numbers 0 to this minus 1; others count as own. */
  int MAX_ATTRIBUTE_SETS = 1 << 16;

  /**
   * Announces what a context id stands for, before any thread switches to it: the W3C trace id
   * (two big-endian halves), span id, trace flags, and OTEP-4947 attribute data (packed
   * {@code {u8 key index, u8 length, u8[length] utf-8}} entries, possibly empty; read, never
   * changed or kept: the registry shares one array between contexts). An id may be defined again
   * when the registry reuses it. Called from application threads (on a context's first use), so
   * it must be cheap and must not throw.
   *
   * @param attributeSet a number (from 0) that stands for exactly these attribute bytes for the
   *     life of the process, whichever registry defines it: a bridge may keep the bytes once per
   *     set, however many contexts carry them, and read the array only on the set's first define.
   *     {@link #OWN_ATTRIBUTES} for bytes of this context alone.
   */
  void define(
      int contextId, long traceIdHigh, long traceIdLow, long spanId, byte traceFlags, byte[] attributes, int attributeSet);

  /**
   * Records that the calling thread now runs in {@code contextId} (0 = no context). Never throws,
   * never blocks, allocates nothing after the thread's first call.
   */
  void switchTo(int contextId);

  /**
   * Shows {@code contextId} (0 = none) in the calling OS thread's external thread-context record
   * only, with no timeline entry: what a virtual-thread carrier shows while a virtual thread is
   * mounted on it. Never throws, never blocks, allocates nothing. A bridge without such a record
   * ({@link #hasThreadRecord()} false) does nothing.
   */
  default void showOnRecord(int contextId) {}

  /**
   * Marks every OS thread's external thread-context record invalid, so that readers outside the
   * JVM see no context until the thread's next switch: for switching profiling off. Called from
   * a background thread once no switches are recorded any more. A bridge without such records does
   * nothing.
   */
  default void clearRecords() {}

  /**
   * Profiling is switched off ({@code true}; called after the last drain) or on again ({@code
   * false}; called before the next drain). While off, drains deliver nothing, and the timeline
   * memory of a thread that ends is freed as it ends, with no thread of ours polling for it.
   * Called from one background thread at a time.
   */
  default void switchedOff(boolean off) {}

  /** Whether this bridge publishes a per-OS-thread record that readers outside the JVM see. */
  default boolean hasThreadRecord() {
    return false;
  }

  /** Copies every entry written since the previous drain into {@code sink}. One caller at a time. */
  void drain(TimelineSink sink);

  /**
   * Publishes (or replaces) the OTEP-4719 process context: {@code payload} is a serialized
   * {@code opentelemetry.proto.processcontext.v1development.ProcessContext}. Returns false where
   * there is no external reader to publish to (the pure-Java bridge).
   */
  boolean publishProcessContext(byte[] payload);

  /** A short name of the implementation, for the startup log line. */
  String implementation();
}
