package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * One thread redefines slots over and over, as the registry reuses them (a new generation each
 * time), moving each between shared attribute sets and attributes of its own, while other threads
 * switch to the id being rewritten and read their records: a record that is marked valid must show
 * one definition whole, never the ids of one and the attributes of another.
 *
 * <p>Every id stands for one definition (trace and span id = the id, attributes chosen by it), and
 * no id is defined twice (each slot is rewritten fewer than {@link ContextIds#GENERATIONS} times):
 * a reader preempted mid-copy for a whole generation wrap could otherwise meet its id again, the
 * one case the table's sequence check cannot see and the registry's slot reuse makes far apart.
 */
class TableRewriteConcurrencyTest {
  private static final int READERS = 2;
  private static final long RUN_NANOS = 1_500_000_000L;
  /** Slots rewritten in turn (prime to the 6 definitions, so each slot meets them all). */
  private static final int SLOTS = 1999;
  private static final int FIRST_SLOT = 2_500_000; // a chunk no other test uses
  /**
   * Set numbers no other test of this JVM uses: the native table keeps sets for the process. Below
   * {@link TableChunks#SETS}: once a set is known, its contexts are defined from Java, so the
   * rewrites mix Java's definitions (shared sets, no attributes) and JNI's (own bytes).
   */
  private static final int FIRST_SET = 4_011;
  private static final int DEFINITIONS = 6; // 0-1: shared sets, 2: own short, 3: own long, 4: shared long, 5: none

  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  private static int definitionOf(int id) {
    return (ContextIds.index(id) + ContextIds.generation(id)) % DEFINITIONS;
  }

  private static byte[] attributesOf(int k) {
    return k == 5 ? new byte[0] : ThreadRecordTest.attr(0, (k >= 3 ? "long-".repeat(40) : "") + "/route/" + k);
  }

  private static int setOf(int k) {
    return k == 0 || k == 1 || k == 4 ? FIRST_SET + k : ContextBridge.OWN_ATTRIBUTES;
  }

  private void define(int id) {
    int k = definitionOf(id);
    bridge.define(id, 0, id, id, (byte) 1, attributesOf(k), setOf(k));
  }

  @Test
  void aValidRecordAlwaysShowsOneDefinitionWhole() throws Exception {
    int[] ids = new int[SLOTS];
    for (int s = 0; s < SLOTS; s++) {
      ids[s] = ContextIds.first(FIRST_SLOT + s);
      define(ids[s]);
    }
    AtomicInteger victim = new AtomicInteger(ids[0]); // the id whose slot is rewritten next
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong valid = new AtomicLong();
    List<String> wrong = new ArrayList<>();
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < READERS; r++) {
      Thread reader = new Thread(() -> {
        while (running.get()) {
          bridge.switchTo(victim.get());
          byte[] record = ExternalRecordReader.readOwnThread();
          if (record[24] != 1) {
            continue; // redefined before the switch, or a copy torn by a rewrite: refused
          }
          valid.incrementAndGet();
          ByteBuffer fields = ByteBuffer.wrap(record); // the ids are big-endian
          int id = (int) fields.getLong(8);
          byte[] shown = Arrays.copyOfRange(record, 28, record.length);
          if (fields.getLong(16) != id || !Arrays.equals(shown, attributesOf(definitionOf(id)))) {
            synchronized (wrong) {
              wrong.add("trace " + id + ", span " + fields.getLong(16) + ", " + shown.length + " attribute bytes");
            }
          }
        }
        bridge.switchTo(0);
      });
      reader.start();
      readers.add(reader);
    }
    long rewrites = 0;
    long end = System.nanoTime() + RUN_NANOS;
    while (System.nanoTime() < end && rewrites < (long) SLOTS * (ContextIds.GENERATIONS - 1)) {
      int s = (int) (rewrites++ % SLOTS);
      victim.set(ids[s]);
      ids[s] = ContextIds.next(ids[s]);
      define(ids[s]);
    }
    running.set(false);
    for (Thread reader : readers) {
      reader.join();
    }

    assertThat(wrong).as("records showing a mix of definitions (%d valid, %d rewrites)", valid.get(), rewrites).isEmpty();
    assertThat(valid.get()).as("valid records read").isPositive();
  }
}
