package io.spanflight.internal.correlate;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The context history of one Java thread, as sorted (nanoTime, contextId) steps: from each step's
 * time until the next step, the thread ran in that context. Owned by {@link Timelines}; not
 * thread-safe on its own.
 *
 * <p>Steps live in blocks of {@value #BLOCK_STEPS}: a busy thread's history of seconds is many
 * blocks, pruned by dropping whole blocks from the front, never one large array that doubles,
 * is copied down at every prune, and (past a few megabytes) takes whole heap regions of its own.
 * A quiet thread has one block, small at first ({@value #INITIAL_STEPS} steps), that doubles up to
 * a full block and halves again after a burst.
 *
 * <p>Steps are numbered from the first block's start: step {@code i} is in block {@code i >>>
 * BLOCK_BITS}; the steps kept are {@code [first, end)}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ThreadTimeline {
  static final int INITIAL_STEPS = 16;
  private static final int INITIAL_BLOCKS = 4;
  static final int BLOCK_BITS = 10;
  static final int BLOCK_STEPS = 1 << BLOCK_BITS;
  private static final int IN_BLOCK = BLOCK_STEPS - 1;
  /** Where blocks come from and go back to. */
  private final StepArrays arrays;
  /** In time order; every block is {@value #BLOCK_STEPS} long, except a lone first block. */
  private StepBlock[] blocks = new StepBlock[INITIAL_BLOCKS];
  private int blockCount;
  private int first;
  private int end;
  /** Times before this were pruned: what the thread did then is no longer known. */
  private long knownSince = Long.MIN_VALUE;

  boolean ended;

  ThreadTimeline(StepArrays arrays, long nanoTime) {
    this.arrays = arrays;
    restart(nanoTime);
  }

  /**
   * Makes a released timeline (or a new one) an empty timeline of a thread, its step times kept as
   * offsets from {@code nanoTime}: {@link Timelines} reuses the timelines of threads that are gone.
   */
  void restart(long nanoTime) {
    blocks[0] = arrays.take(INITIAL_STEPS, nanoTime);
    blockCount = 1;
    first = 0;
    end = 0;
    knownSince = Long.MIN_VALUE;
    ended = false;
  }

  /**
   * Adds a step, keeping the steps sorted by time. They usually arrive in order; a virtual thread's
   * switches do not always: they sit in the rings of the carriers it ran on, and one drain may read
   * a later carrier's ring before an earlier one's. Such a step is inserted in place (a short
   * shift: it is at most one drain period late).
   */
  void add(long nanoTime, int contextId) {
    makeRoomForOne(nanoTime);
    int at = end;
    while (at > first && time(at - 1) > nanoTime) {
      at--;
    }
    for (int i = end; i > at; i--) {
      set(i, time(i - 1), context(i - 1));
    }
    set(at, nanoTime, contextId);
    end++;
  }

  /** Marks the stretch after the last known step as unknown (ring entries were overwritten). */
  void markUnknownFromLastStep() {
    long from = size() == 0 ? Long.MIN_VALUE : time(end - 1) + 1;
    add(from, Timelines.UNKNOWN);
  }

  /** The context at {@code nanoTime}: 0 before the first step, UNKNOWN where history was lost. */
  int contextAt(long nanoTime) {
    if (nanoTime < knownSince) {
      return Timelines.UNKNOWN;
    }
    int step = stepAt(nanoTime);
    return step < 0 ? 0 : context(step);
  }

  /** The time of the step in force at {@code nanoTime}, Long.MIN_VALUE if none is known. */
  long stepTimeAt(long nanoTime) {
    int step = stepAt(nanoTime);
    return step < 0 ? Long.MIN_VALUE : time(step);
  }

  /** The number of the last step at or before {@code nanoTime}, -1 if there is none. */
  private int stepAt(long nanoTime) {
    int low = first;
    int high = end - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (time(mid) <= nanoTime) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  /** Drops steps that ended before {@code nanoTime}, keeping the one still in force then. */
  void pruneBefore(long nanoTime) {
    int inForce = stepAt(nanoTime);
    if (inForce > first) {
      first = inForce;
      knownSince = time(first);
    }
    dropBlocksBeforeFirst();
    if (blockCount == 1) {
      StepBlock lone = blocks[0];
      boolean afterBurst = lone.length() > 64 && size() < lone.length() / 4; // give memory back
      if (afterBurst || first > 0) {
        moveLoneBlockTo(afterBurst ? lone.length() / 2 : lone.length());
      }
    }
  }

  /** Hands back the blocks that hold no kept step. */
  private void dropBlocksBeforeFirst() {
    int drop = first >>> BLOCK_BITS;
    if (drop == 0) {
      return;
    }
    for (int b = 0; b < drop; b++) {
      arrays.give(blocks[b]);
    }
    System.arraycopy(blocks, drop, blocks, 0, blockCount - drop);
    Arrays.fill(blocks, blockCount - drop, blockCount, null);
    blockCount -= drop;
    first -= drop << BLOCK_BITS;
    end -= drop << BLOCK_BITS;
  }

  /**
   * Room for one more step at {@code end}: the lone block doubles, then full blocks are added (their
   * offsets counting from {@code nanoTime}, the step about to be added).
   */
  private void makeRoomForOne(long nanoTime) {
    if (blockCount == 1) {
      int length = blocks[0].length();
      if (end < length) {
        return;
      }
      if (length < BLOCK_STEPS) {
        moveLoneBlockTo(length * 2);
        return;
      }
    } else if (end < blockCount << BLOCK_BITS) {
      return;
    }
    if (blockCount == blocks.length) {
      blocks = Arrays.copyOf(blocks, blockCount * 2);
    }
    blocks[blockCount++] = arrays.take(BLOCK_STEPS, nanoTime);
  }

  /** Moves the kept steps of the lone block to the start of a block of {@code length} (it may be the same). */
  private void moveLoneBlockTo(int length) {
    StepBlock old = blocks[0];
    int size = size();
    StepBlock target = length == old.length() ? old : arrays.take(length, size == 0 ? 0 : old.time(first));
    for (int i = 0; i < size; i++) { // a block of at most BLOCK_STEPS, forwards: safe in place too
      target.set(i, old.time(first + i), old.context(first + i));
    }
    if (target != old) {
      arrays.give(old);
      blocks[0] = target;
    }
    first = 0;
    end = size;
  }

  private long time(int step) {
    return blocks[step >>> BLOCK_BITS].time(step & IN_BLOCK);
  }

  private int context(int step) {
    return blocks[step >>> BLOCK_BITS].context(step & IN_BLOCK);
  }

  private void set(int step, long nanoTime, int contextId) {
    blocks[step >>> BLOCK_BITS].set(step & IN_BLOCK, nanoTime, contextId);
  }

  /**
   * Hands the blocks back: the timeline is gone, and must not be used again until {@link #restart}.
   * Another timeline may get these blocks: a use before the restart fails, loudly, on the null block.
   */
  void release() {
    for (int b = 0; b < blockCount; b++) {
      arrays.give(blocks[b]);
    }
    if (blocks.length > INITIAL_BLOCKS) {
      blocks = new StepBlock[INITIAL_BLOCKS]; // a burst's long block list is not kept for the next thread
    } else {
      Arrays.fill(blocks, null);
    }
    blockCount = 0;
    first = 0;
    end = 0;
  }

  /** The time of the newest step, or Long.MIN_VALUE when empty. */
  long lastTime() {
    return size() == 0 ? Long.MIN_VALUE : time(end - 1);
  }

  /** The context of the newest step, 0 when empty. */
  int lastContext() {
    return size() == 0 ? 0 : context(end - 1);
  }

  long memoryBytes() {
    long bytes = 0;
    for (int b = 0; b < blockCount; b++) {
      bytes += blocks[b].memoryBytes();
    }
    return bytes;
  }

  int size() {
    return end - first;
  }

  void forEachContext(IntConsumer action) {
    for (int i = first; i < end; i++) {
      action.accept(context(i));
    }
  }
}
