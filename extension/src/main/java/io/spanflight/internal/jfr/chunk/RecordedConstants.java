package io.spanflight.internal.jfr.chunk;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * Puts the stacks and methods of the JDK's parser ({@code RecordedStackTrace}, {@code
 * RecordedMethod}) into a {@link ConstantStore}, as {@link ChunkReader} puts those it reads: the
 * same frames (method and line, top first), so that a sample read by either reader has the same
 * stack. Used by the JDK's event stream, the reader Spanflight falls back to.
 *
 * <p>The parser hands out one object per stack of a chunk; those met since the last {@link
 * #forget} map to their index here, so that a stack is walked once per flush, not once per sample.
 * The store is bounded as the chunk reader bounds it: past {@link ChunkReader#MAX_STORE_ENTRIES}
 * it is cleared (a new {@linkplain ConstantStore#generation generation}) before the next stack.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class RecordedConstants {
  private final ConstantStore store;
  private final Map<RecordedStackTrace, Integer> stacks = new IdentityHashMap<>();
  private final Map<RecordedMethod, Integer> methods = new IdentityHashMap<>();
  private int[] frames = new int[64];
  private int generation;

  public RecordedConstants(ConstantStore store) {
    this.store = store;
    this.generation = store.generation();
  }

  /** The stack's index in the store, or -1 for no stack or one with a frame without its method. */
  public int stack(RecordedStackTrace stackTrace) {
    if (stackTrace == null) {
      return -1;
    }
    boundStore();
    Integer known = stacks.get(stackTrace);
    if (known != null) {
      return known;
    }
    List<RecordedFrame> recorded = stackTrace.getFrames();
    int count = recorded.size();
    if (frames.length < count) {
      frames = new int[count];
    }
    int stack = -1;
    boolean resolved = true;
    for (int i = 0; i < count && resolved; i++) {
      RecordedFrame frame = recorded.get(i);
      int method = interned(frame.getMethod());
      resolved = method >= 0;
      if (resolved) {
        frames[i] = store.frameOf(method, frame.getLineNumber());
      }
    }
    if (resolved) {
      stack = store.stack(frames, count);
    }
    stacks.put(stackTrace, stack);
    return stack;
  }

  /** The method's index in the store, or -1 for no method or one without its class or names. */
  public int method(RecordedMethod method) {
    if (method == null) {
      return -1;
    }
    boundStore();
    return interned(method);
  }

  /** {@link #method} without bounding the store: within a stack, its frames must stay valid. */
  private int interned(RecordedMethod method) {
    if (method == null) {
      return -1;
    }
    Integer known = methods.get(method);
    if (known != null) {
      return known;
    }
    int index = -1;
    if (method.getType() != null && method.getName() != null && method.getDescriptor() != null) {
      // the class name as the chunk holds it (slashes); the store gives it back with dots, as here
      index = store.method(store.string(method.getType().getName().replace('.', '/')),
          store.string(method.getName()), store.string(method.getDescriptor()));
    }
    methods.put(method, index);
    return index;
  }

  /** Clears the store past its bound; forgets what this knew of a store cleared (here or by others). */
  private void boundStore() {
    if (store.entries() > ChunkReader.MAX_STORE_ENTRIES) {
      store.clear();
    }
    if (store.generation() != generation) {
      forget();
      generation = store.generation();
    }
  }

  /**
   * Forgets the parser's objects met so far (call after each flush): the next meeting walks them
   * again, and the objects of chunks gone are not kept.
   */
  public void forget() {
    stacks.clear();
    methods.clear();
  }
}
