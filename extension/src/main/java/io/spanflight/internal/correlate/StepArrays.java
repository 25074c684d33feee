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
 * <p>Only arrays of at least {@value #MIN_POOLED} steps are kept (smaller ones are cheap and die
 * young), and at most {@code maxFreeBytes} wait here; beyond that a returned array is left to the
 * garbage collector. Lengths are powers of two. Used under the {@link Timelines} lock only.
 *
 * <p>Not API: internal to Spanflight.
 */
final class StepArrays {
  static final int MIN_POOLED = 256;
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
      freeBytes -= length * STEP_BYTES;
    } else {
      if (length >= MIN_POOLED) {
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
    long bytes = length * STEP_BYTES;
    if (length < MIN_POOLED || freeBytes + bytes > maxFreeBytes) {
      return;
    }
    block.startAt(0); // lets go of its long times, if it had any, while it waits
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
   * Blocks of at least {@value #MIN_POOLED} steps allocated since startup (not counting those
   * handed out again): the ones that would otherwise be copied by young collections.
   */
  long created() {
    return created;
  }

  private static int log2(int powerOfTwo) {
    return Integer.numberOfTrailingZeros(powerOfTwo);
  }
}
