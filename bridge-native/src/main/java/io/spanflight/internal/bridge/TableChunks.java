package io.spanflight.internal.bridge;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Defines a context in the native context table from Java, without a JNI call, when the table
 * already has everything but the entry itself: the slot's chunk, and the block of the context's
 * shared attribute set (or no attributes at all). The first define of a chunk or of a set goes
 * through JNI, which makes them; after it, the chunk is reached through a direct buffer and the
 * set by its block's address, both kept for the life of the process (the table never moves or
 * frees either). On PetClinic a span's JNI definition was 0.08 % of the JVM's CPU (2026-12-06).
 *
 * <p>The entry is written with the table's sequence lock, as {@code sf_table_define} does: the
 * id 0, then the content, then the id with a release store. A native reader that copies the entry
 * meanwhile reads the id again after its copy and drops the copy if it changed. Layout (fixed by
 * {@code _Static_assert}s in {@code context_table.c}): the id at 0 (native order), the trace id at
 * 4 and the span id at 20 (big-endian bytes), the flags at 28, the attribute block's address at 32
 * (native order).
 *
 * <p>Not API: internal to Spanflight.
 */
final class TableChunks {
  static final int CHUNK_BITS = 10;
  private static final int ENTRY_SIZE = 40;
  /**
   * Sets defined from here: the first this many numbers (the registry shares at most 4 096 sets);
   * a context of a higher set goes through JNI. Two arrays of this many longs: 64 KB of heap.
   */
  static final int SETS = 4096;
  private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
  private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  /** Chunk buffers by chunk number, published safely (a buffer's fields are not final). */
  private final AtomicReferenceArray<ByteBuffer> chunks =
      new AtomicReferenceArray<>((ContextIds.MAX_INDEX >>> CHUNK_BITS) + 1);
  /** Set block addresses by set number, 0 while unknown. */
  private final AtomicLongArray setBlocks = new AtomicLongArray(SETS);
  /** Dropped bytes of each set's block (counted at every define of the set, as the table does). */
  private final AtomicLongArray setDropped = new AtomicLongArray(SETS);
  private final AtomicLong droppedHere = new AtomicLong();

  /**
   * Writes the entry if the chunk and the attributes' block are known; false when the caller
   * must define through JNI (then {@link #learn} after it).
   */
  boolean define(int contextId, long traceIdHigh, long traceIdLow, long spanId, byte traceFlags, byte[] attributes,
      int attributeSet) {
    int index = ContextIds.index(contextId);
    ByteBuffer chunk = chunks.get(index >>> CHUNK_BITS);
    long block = blockOf(attributeSet, attributes);
    if (chunk == null || block < 0) {
      return false;
    }
    int at = (index & ((1 << CHUNK_BITS) - 1)) * ENTRY_SIZE;
    INT.setOpaque(chunk, at, 0);
    VarHandle.storeStoreFence(); // the content stays behind the 0, as a reader expects
    chunk.putLong(at + 4, traceIdHigh); // the buffer is big-endian: W3C byte order
    chunk.putLong(at + 12, traceIdLow);
    chunk.putLong(at + 20, spanId);
    chunk.put(at + 28, traceFlags);
    LONG.setOpaque(chunk, at + 32, block); // opaque: one 8-byte store, never a torn pointer
    INT.setRelease(chunk, at, contextId);
    if (block != 0) {
      long dropped = setDropped.get(attributeSet);
      if (dropped > 0) {
        droppedHere.addAndGet(dropped);
      }
    }
    return true;
  }

  /**
   * The address to store for these attributes: 0 for none (no set, no bytes), the set's block
   * once known, else -1 (through JNI).
   */
  private long blockOf(int attributeSet, byte[] attributes) {
    if (attributeSet >= 0 && attributeSet < SETS) {
      long block = setBlocks.get(attributeSet);
      return block != 0 ? block : -1;
    }
    boolean own = attributeSet < 0 || attributeSet >= ContextBridge.MAX_ATTRIBUTE_SETS;
    return own && (attributes == null || attributes.length == 0) ? 0 : -1;
  }

  /** After a define through JNI: keeps the chunk of {@code contextId} and the set's block, if made. */
  void learn(int contextId, int attributeSet) {
    int chunk = ContextIds.index(contextId) >>> CHUNK_BITS;
    if (chunks.get(chunk) == null) {
      ByteBuffer buffer = NativeContextBridge.tableChunk0(chunk);
      // A chunk of another size would mean another layout: then every define stays with JNI.
      if (buffer != null && buffer.capacity() == ENTRY_SIZE << CHUNK_BITS) {
        chunks.compareAndSet(chunk, null, buffer.order(ByteOrder.BIG_ENDIAN));
      }
    }
    if (attributeSet >= 0 && attributeSet < SETS && setBlocks.get(attributeSet) == 0) {
      long[] block = new long[2];
      if (NativeContextBridge.attributeSetBlock0(attributeSet, block)) {
        setDropped.set(attributeSet, block[1]);
        setBlocks.set(attributeSet, block[0]); // after its dropped count: a reader of the address sees it
      }
    }
  }

  /** Attribute bytes counted as dropped by defines made here (the table counts its own). */
  long droppedAttributeBytes() {
    return droppedHere.get();
  }
}
