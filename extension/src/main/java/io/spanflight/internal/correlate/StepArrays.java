package io.spanflight.internal.correlate;

import java.util.ArrayDeque;

/**
 * Step arrays (blocks) that timelines hand back when they prune, shrink or go, kept to be handed
 * out again.
 *
 * <p>Why: a busy thread's timeline takes a new block every {@value ThreadTimeline#BLOCK_STEPS}
 * switches and hands its oldest back as they are pruned; a quiet thread's lone block doubles and
 * halves. Each block lives for seconds (as long as its thread's history), so the garbage collector
 * would copy a new one at every young collection until it is promoted. On Spring PetClinic the
 * timelines' arrays were about 8 % of what Spanflight made young collections copy (JFR's {@code
 * jdk.PromoteObject*} events, 2026-11-26, when a timeline was one array that doubled; context
 * records were the most). Handed out again, a block is old already: in a steady state timelines
 * allocate nothing.
 *
 * <p>Blocks of every length are kept, the small first blocks of new threads too: a thread's
 * timeline lives seconds after the thread ends (until no sample can join it), long enough for its
 * block to be promoted, and a service that starts a virtual thread per request (the demo) made a
 * few thousand of them a minute, which died in the old generation. At most {@code maxFreeBytes}
 * wait here (a block's long times included, see {@link StepBlock}); beyond that a returned block
 * is left to the garbage collector. Lengths are powers of two. Used under the {@link Timelines}
 * lock only.
 *
 * <p>Not API: internal to Spanflight.
 */
final class StepArrays {
  /** Blocks of at least this many steps are counted by {@link #created}. */
  static final int COUNTED_LENGTH = 256;
  /** A step's time offset and context (a widened block holds long times besides: see {@link StepBlock}). */
  static final long STEP_BYTES = Integer.BYTES + Integer.BYTES;
  /** Free blocks by log2 of their length. */
  private final ArrayDeque<StepBlock>[] free;
  private final long maxFreeBytes;
  private long freeBytes;
  private long created;

  @SuppressWarnings("unchecked")
  StepArrays(long maxFreeBytes) {
    this.maxFreeBytes = maxFreeBytes;
    this.free = new ArrayDeque[32];
  }

  /**
   * A block of {@code length} steps (a power of two) whose offsets count from {@code nanoTime},
   * reused when one is free.
   */
  StepBlock take(int length, long nanoTime) {
    ArrayDeque<StepBlock> same = free[log2(length)];
    StepBlock block = same == null ? null : same.poll();
    if (block != null) {
      freeBytes -= block.memoryBytes();
    } else {
      if (length >= COUNTED_LENGTH) {
        created++;
      }
      block = new StepBlock(length);
    }
    block.startAt(nanoTime);
    return block;
  }

  /** Takes {@code block} back (its contents are not cleared: every reader stops at its size). */
  void give(StepBlock block) {
    int length = block.length();
    long bytes = block.memoryBytes();
    if (freeBytes + bytes > maxFreeBytes) {
      return;
    }
    int slot = log2(length);
    if (free[slot] == null) {
      free[slot] = new ArrayDeque<>();
    }
    free[slot].push(block);
    freeBytes += bytes;
  }

  /** Bytes of the blocks waiting here (their offsets and contexts). */
  long freeBytes() {
    return freeBytes;
  }

  /**
   * Blocks of at least {@value #COUNTED_LENGTH} steps allocated since startup (not counting those
   * handed out again): the ones that would otherwise be copied by young collections.
   */
  long created() {
    return created;
  }

  private static int log2(int powerOfTwo) {
    return Integer.numberOfTrailingZeros(powerOfTwo);
  }
}
