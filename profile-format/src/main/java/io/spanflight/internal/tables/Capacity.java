package io.spanflight.internal.tables;

/**
 * How much of its arrays a table keeps when it is cleared for reuse. Tables that live across
 * export intervals or JFR chunks keep their arrays, so that they are not allocated (and copied by
 * young collections) anew each time; but kept as they are, one burst (the first minute's stacks,
 * one large checkpoint) would hold its size for the life of the JVM. So an array stays while it
 * is at most {@value #SLACK} times what the use that just ended needed, and shrinks otherwise to
 * twice that: a steady load keeps its arrays, and memory follows the load down.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class Capacity {
  /** An array longer than this many times what its last use needed is shrunk at the next clear. */
  static final int SLACK = 4;

  private Capacity() {}

  /**
   * The length an array of {@code length} keeps when its table is cleared, after a use that
   * needed {@code needed} elements (for a hash table: its entries times the largest load it
   * grows at); {@code initial} is the table's first length, never shrunk below, and doubled to at
   * least twice {@code needed} (a power of two when {@code initial} is one).
   */
  public static int afterClear(int length, int needed, int initial) {
    if (length <= SLACK * (long) Math.max(needed, initial)) {
      return length;
    }
    int kept = initial;
    while (kept < 2L * needed) {
      kept *= 2;
    }
    return kept;
  }
}
