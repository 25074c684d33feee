package io.spanflight.internal.tables;

import java.util.Arrays;

/**
 * The stack table of one export interval: stacks (location indexes, leaf first) interned to
 * indexes 0 and up, all held in int arrays that a cleared table keeps for the next interval
 * (while the interval before needed them: see {@link Capacity}).
 *
 * <p>Why not a list of arrays with a map of array keys: an interval of a busy service interns
 * thousands of stacks, and an array plus a key object per stack lives the whole interval (10 s),
 * long enough for every young collection to copy it again (on Spring PetClinic, {@code int[]} was
 * the largest class Spanflight itself made young collections copy after its JFR parser's objects:
 * JFR's {@code jdk.PromoteObject*} events, 2026-11-26).
 *
 * <p>The JFR chunk reader ({@code io.spanflight.internal.jfr.chunk}) uses the same table for any
 * sequence of ints it interns: methods, frames and stacks.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class StackTable {
  /** Every stack's locations, one stack after the other. */
  private static final int INITIAL_LOCATIONS = 1024;
  private static final int INITIAL_STACKS = 64;
  private int[] locations = new int[INITIAL_LOCATIONS];
  /** Where stack i starts in {@link #locations}; {@code starts[count]} is where the next one goes. */
  private int[] starts = new int[INITIAL_STACKS];
  private int count;
  /** Open addressing over the stacks: stack index + 1 per slot, 0 for an empty slot. */
  private int[] slots = new int[2 * INITIAL_STACKS];

  /** The index of the stack made of {@code stack[0..length)}, interned on first sight. */
  public int intern(int[] stack, int length) {
    int mask = slots.length - 1;
    int slot = IndexMap.spread(hash(stack, length)) & mask;
    for (; slots[slot] != 0; slot = (slot + 1) & mask) {
      int index = slots[slot] - 1;
      if (equals(index, stack, length)) {
        return index;
      }
    }
    int index = append(stack, length);
    if (2 * count > slots.length) {
      grow();
    } else {
      slots[slot] = index + 1;
    }
    return index;
  }

  /** Stacks interned (the zero stack, once interned, included). */
  public int size() {
    return count;
  }

  /** How many locations stack {@code index} has. */
  public int length(int index) {
    return starts[index + 1] - starts[index];
  }

  /** The location at {@code position} (0: the leaf) of stack {@code index}. */
  public int location(int index, int position) {
    return locations[starts[index] + position];
  }

  /** Stack {@code index} copied into {@code into}, or into a new array when it is too short. */
  public int[] copy(int index, int[] into) {
    int length = length(index);
    int[] target = into.length >= length ? into : new int[length];
    System.arraycopy(locations, starts[index], target, 0, length);
    return target;
  }

  /** Locations held by all stacks together. */
  public int locationCount() {
    return starts[count];
  }

  /** Locations the table has room for without growing. */
  public int locationCapacity() {
    return locations.length;
  }

  /** Empties the table, keeping its arrays unless they are far larger than this use needed. */
  public void clear() {
    locations = keep(locations, starts[count], INITIAL_LOCATIONS);
    starts = keep(starts, count + 1, INITIAL_STACKS);
    int slotCount = Capacity.afterClear(slots.length, 2 * count, 2 * INITIAL_STACKS);
    if (slotCount != slots.length) {
      slots = new int[slotCount];
    } else {
      Arrays.fill(slots, 0);
    }
    count = 0;
    starts[0] = 0;
  }

  /** {@code array}, or a shorter one where it is far longer than {@code needed} (contents dropped). */
  private static int[] keep(int[] array, int needed, int initial) {
    int length = Capacity.afterClear(array.length, needed, initial);
    return length == array.length ? array : new int[length];
  }

  private int append(int[] stack, int length) {
    int start = starts[count];
    if (start + length > locations.length) {
      // by half: the JFR reader's store holds megabytes of locations (Spring PetClinic: 10 230
      // stacks in a 4 MB array), and doubling leaves up to half of them unused
      int grown = (int) Math.min(Integer.MAX_VALUE - 8, (long) locations.length + (locations.length >> 1));
      locations = Arrays.copyOf(locations, Math.max(grown, start + length));
    }
    System.arraycopy(stack, 0, locations, start, length);
    if (count + 2 > starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    starts[count + 1] = start + length;
    return count++;
  }

  private boolean equals(int index, int[] stack, int length) {
    int start = starts[index];
    return starts[index + 1] - start == length
        && Arrays.equals(locations, start, start + length, stack, 0, length);
  }

  /** Re-slots every stack into a table twice the size. */
  private void grow() {
    slots = new int[slots.length * 2];
    int mask = slots.length - 1;
    for (int index = 0; index < count; index++) {
      int start = starts[index];
      int slot = IndexMap.spread(hash(locations, start, starts[index + 1])) & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = index + 1;
    }
  }

  private static int hash(int[] stack, int length) {
    return hash(stack, 0, length);
  }

  private static int hash(int[] values, int from, int to) {
    int h = 1;
    for (int i = from; i < to; i++) {
      h = 31 * h + values[i];
    }
    return h;
  }
}
