package io.spanflight.internal.bridge;

/**
 * The layout of a context id: an int whose low {@value #INDEX_BITS} bits are the index of its slot
 * in the native context table (1 to {@link #MAX_INDEX}), whose next {@value #GENERATION_BITS}
 * bits count how often that slot was handed out before, and whose sign bit is 0. The table keeps
 * the whole id next to each slot and a switch shows a slot's content only when the ids are equal,
 * so a thread that writes an id after its slot was given to another context shows nothing rather
 * than the other context. 0 means "no context".
 *
 * <p>Generations wrap after {@value #GENERATIONS} reuses of one slot: a thread would have to hold
 * an id across that many reuses of its slot before its late write could match again.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextIds {
  public static final int INDEX_BITS = 22;
  public static final int GENERATION_BITS = 31 - INDEX_BITS;
  public static final int GENERATIONS = 1 << GENERATION_BITS;
  /** The highest slot index (index 0 is never used, so that id 0 keeps meaning "none"). */
  public static final int MAX_INDEX = (1 << INDEX_BITS) - 1;

  private ContextIds() {}

  /** The id of slot {@code index} (1 to {@link #MAX_INDEX}) in generation 0. */
  public static int first(int index) {
    return index;
  }

  /** The slot of a positive id. */
  public static int index(int id) {
    return id & MAX_INDEX;
  }

  /** How often the slot of {@code id} had been handed out before it. */
  public static int generation(int id) {
    return id >>> INDEX_BITS;
  }

  /** The id that the slot of {@code id} gets when it is handed out next (generations wrap). */
  public static int next(int id) {
    int generation = (generation(id) + 1) & (GENERATIONS - 1);
    return generation << INDEX_BITS | index(id);
  }

  /** Whether {@code id} could have been handed out: positive, with a slot index other than 0. */
  public static boolean isValid(int id) {
    return id > 0 && index(id) != 0;
  }
}
