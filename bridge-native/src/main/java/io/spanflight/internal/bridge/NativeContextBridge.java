package io.spanflight.internal.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The native bridge (libspanflight.so, see {@code src/main/c/spanflight.h}): each switch is one
 * JNI call that writes the calling OS thread's OTEP-4947 record {@code otel_thread_ctx_v1} and
 * appends (time, context id, Java thread id) to that OS thread's timeline ring; the time is TSC
 * ticks while {@link SwitchClock} trusts them, else {@code CLOCK_MONOTONIC}. The switch keeps no
 * pointer into native memory on the Java side: the write always lands on the OS thread that runs
 * the switch, which for a virtual thread is its current carrier. Definitions do: the context
 * table's chunks, which never move ({@link TableChunks}).
 *
 * <p>The native state (context table, rings, process context) is per process: create one bridge
 * per process ({@link ContextBridges#create}); the ring capacity is fixed by the first one.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class NativeContextBridge implements ContextBridge {

  /** Slots in the native table: ids whose {@link ContextIds#index} is 1 to {@code MAX_CONTEXTS - 1}. */
  public static final int MAX_CONTEXTS = ContextIds.MAX_INDEX + 1;

  private static final byte[] NO_ATTRIBUTES = new byte[0];
  private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

  private final int ringCapacity;
  private final NativeDrain drain;
  /** Defines contexts of known sets and chunks without JNI (the table is per process; so is this). */
  private static final TableChunks TABLE = new TableChunks();

  /**
   * Call only once {@link NativeLibrary#load} has succeeded.
   *
   * @throws IllegalStateException if the library cannot set up its rings
   */
  NativeContextBridge(int ringCapacity) {
    synchronized (NativeContextBridge.class) {
      this.ringCapacity = init0(ringCapacity);
    }
    if (this.ringCapacity < 0) {
      throw new IllegalStateException("native ring setup failed for capacity " + ringCapacity);
    }
    this.drain = new NativeDrain(this.ringCapacity);
  }

  @Override
  public void define(
      int contextId, long traceIdHigh, long traceIdLow, long spanId, byte traceFlags, byte[] attributes, int attributeSet) {
    // Refused here rather than thrown from native code into an application thread.
    if (!ContextIds.isValid(contextId)) {
      return;
    }
    if (TABLE.define(contextId, traceIdHigh, traceIdLow, spanId, traceFlags, attributes, attributeSet)) {
      return; // the usual case: no JNI call
    }
    // A set number outside 0 .. MAX_ATTRIBUTE_SETS - 1 is taken as the context's own by the table.
    define0(contextId, traceIdHigh, traceIdLow, spanId, traceFlags, attributeSet, attributes == null ? NO_ATTRIBUTES : attributes);
    TABLE.learn(contextId, attributeSet);
  }

  @Override
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  public void switchTo(int contextId) {
    Thread current = Thread.currentThread();
    switchTo0(contextId, current.getId(), isVirtual(current));
  }

  @Override
  public void showOnRecord(int contextId) {
    showOnRecord0(contextId);
  }

  @Override
  public void clearRecords() {
    clearRecords0();
  }

  @Override
  public void switchedOff(boolean off) {
    switchedOff0(off);
    if (off) {
      drain.forgetRings();
    }
  }

  @Override
  public boolean hasThreadRecord() {
    return true;
  }

  @Override
  public void drain(TimelineSink sink) {
    drain.drainTo(sink);
  }

  @Override
  public boolean publishProcessContext(byte[] payload) {
    synchronized (NativeContextBridge.class) {
      return payload != null && publishProcessContext0(payload);
    }
  }

  @Override
  public String implementation() {
    return "native linux-x86_64 (OTEP-4947 record otel_thread_ctx_v1)";
  }

  /** How many rings the drain keeps a last time for (for tests). */
  int ringsKeptByDrain() {
    return drain.ringsKept();
  }

  /** Attribute bytes dropped so far because a context's attributes did not fit the record. */
  public long droppedAttributeBytes() {
    return droppedAttributeBytes0() + TABLE.droppedAttributeBytes();
  }

  /** Entries per OS-thread ring, as fixed by the first bridge of the process. */
  public int ringCapacity() {
    return ringCapacity;
  }

  /** Rings currently allocated (OS threads that switched and whose ring is not yet freed). */
  public int ringCount() {
    return ringCount0();
  }

  private static boolean isVirtual(Thread thread) {
    try {
      return (boolean) IS_VIRTUAL.invokeExact(thread);
    } catch (Throwable e) {
      return false; // isVirtual() cannot throw; this only satisfies the compiler
    }
  }

  /** {@code Thread::isVirtual} from 21 on; a constant false before, where none exist. */
  private static MethodHandle isVirtualHandle() {
    MethodType type = MethodType.methodType(boolean.class);
    try {
      return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", type);
    } catch (ReflectiveOperationException e) {
      return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Thread.class);
    }
  }

  static native int init0(int ringCapacity);

  static native void define0(
      int contextId, long traceIdHigh, long traceIdLow, long spanId, byte traceFlags, int attributeSet, byte[] attributes);

  static native java.nio.ByteBuffer tableChunk0(int chunkNumber);

  static native boolean attributeSetBlock0(int attributeSet, long[] out);

  static native void switchTo0(int contextId, long javaThreadId, boolean virtualThread);

  static native void showOnRecord0(int contextId);

  static native int drain0(
      long[] times, byte[] clocks, int[] contexts, long[] threadIds, long[] meta, boolean restart);

  static native boolean ticksInvariant0();

  static native void useTicks0(boolean on);

  static native boolean clockPair0(long[] out);

  static native boolean publishProcessContext0(byte[] payload);

  static native long droppedAttributeBytes0();

  static native int ringCount0();

  static native void clearRecords0();

  static native void switchedOff0(boolean off);
}
