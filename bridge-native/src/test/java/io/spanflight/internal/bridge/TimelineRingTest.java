package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineRingTest {
  private final TimelineRing.Scratch scratch = new TimelineRing.Scratch(1 << 12);

  /** Records what a drain delivers; checks each entry is one the writer wrote whole. */
  private static final class CheckingSink implements TimelineSink {
    final List<long[]> entries = new ArrayList<>();
    long lost;
    long torn;
    long lastSeq = -1;
    long outOfOrder;

    @Override
    public void switched(long javaThreadId, long nanoTime, int contextId) {
      // The writer below always writes time = 3 * seq + 1 and context = seq.
      if (nanoTime != 3L * contextId + 1) {
        torn++;
      }
      if (contextId <= lastSeq) {
        outOfOrder++;
      }
      lastSeq = contextId;
      entries.add(new long[] {nanoTime, contextId});
    }

    @Override
    public void lost(long javaThreadId, long count) {
      lost += count;
    }

    @Override
    public void threadEnded(long javaThreadId) {}
  }

  @Test
  void deliversEntriesInOrderWhenReaderKeepsUp() {
    TimelineRing ring = new TimelineRing(7, 8);
    CheckingSink sink = new CheckingSink();
    for (int seq = 0; seq < 5; seq++) {
      ring.append(3L * seq + 1, seq);
    }
    assertThat(ring.drainTo(sink, scratch)).isEqualTo(5);
    assertThat(ring.drainTo(sink, scratch)).isZero();
    assertThat(sink.entries).hasSize(5);
    assertThat(sink.lost).isZero();
  }

  @Test
  void reportsExactlyTheOverwrittenEntriesAsLost() {
    TimelineRing ring = new TimelineRing(7, 8);
    CheckingSink sink = new CheckingSink();
    for (int seq = 0; seq < 20; seq++) {
      ring.append(3L * seq + 1, seq);
    }
    ring.drainTo(sink, scratch);
    // 12 were overwritten; the oldest survivor (12) could be mid-rewrite, so it is dropped too.
    assertThat(sink.lost).isEqualTo(13);
    assertThat(sink.entries).extracting(e -> e[1]).containsExactly(13L, 14L, 15L, 16L, 17L, 18L, 19L);
  }

  @Test
  void concurrentWriterNeverYieldsTornEntriesAndAccountsForEverySwitch() throws Exception {
    TimelineRing ring = new TimelineRing(1, 64);
    CheckingSink sink = new CheckingSink();
    int total = 2_000_000;
    Thread writer =
        new Thread(
            () -> {
              for (int seq = 0; seq < total; seq++) {
                ring.append(3L * seq + 1, seq);
              }
            });
    writer.start();
    while (writer.isAlive()) {
      ring.drainTo(sink, scratch);
    }
    writer.join();
    ring.drainTo(sink, scratch);

    assertThat(sink.torn).isZero();
    assertThat(sink.outOfOrder).isZero();
    assertThat(sink.entries.size() + sink.lost).isEqualTo(total);
    assertThat(sink.lastSeq).isEqualTo(total - 1);
  }
  @Test
  void startsSmallAndGrowsInsteadOfOverwritingUndrainedEntries() {
    TimelineRing ring = new TimelineRing(7, 64);
    CheckingSink sink = new CheckingSink();
    assertThat(ring.capacity()).isEqualTo(TimelineRing.INITIAL_CAPACITY);
    for (int seq = 0; seq < 40; seq++) {
      ring.append(3L * seq + 1, seq);
    }
    assertThat(ring.capacity()).isEqualTo(64);
    assertThat(ring.drainTo(sink, scratch)).isEqualTo(40);
    assertThat(sink.lost).isZero();
    assertThat(sink.torn).isZero();
    assertThat(sink.entries).extracting(e -> e[1]).startsWith(0L, 1L, 2L).endsWith(38L, 39L);
  }

  @Test
  void staysSmallWhileTheReaderKeepsUp() {
    TimelineRing ring = new TimelineRing(7, 4096);
    CheckingSink sink = new CheckingSink();
    for (int seq = 0; seq < 1000; seq++) {
      ring.append(3L * seq + 1, seq);
      if (seq % 8 == 7) {
        ring.drainTo(sink, scratch);
      }
    }
    assertThat(ring.capacity()).isEqualTo(TimelineRing.INITIAL_CAPACITY);
    assertThat(sink.entries).hasSize(1000);
    assertThat(sink.lost).isZero();
  }

  @Test
  void growsAfterDrainsWithTheUndrainedEntriesInTheirOrder() {
    TimelineRing ring = new TimelineRing(7, 1024);
    CheckingSink sink = new CheckingSink();
    int seq = 0;
    for (int round = 1; round <= 8; round++) {
      // Each round writes more than the ring held before it, starting at an odd offset.
      for (int i = 0; i < 3 + round * 37; i++, seq++) {
        ring.append(3L * seq + 1, seq);
      }
      ring.drainTo(sink, scratch);
    }
    assertThat(sink.lost).isZero();
    assertThat(sink.torn).isZero();
    assertThat(sink.outOfOrder).isZero();
    assertThat(sink.entries).hasSize(seq);
  }

  @Test
  void losesOnlyOnceAtItsMaximum() {
    TimelineRing ring = new TimelineRing(7, 16);
    CheckingSink sink = new CheckingSink();
    for (int seq = 0; seq < 40; seq++) {
      ring.append(3L * seq + 1, seq);
    }
    ring.drainTo(sink, scratch);
    // Grown to 16; 24 overwritten, and the oldest survivor (24) sacrificed.
    assertThat(ring.capacity()).isEqualTo(16);
    assertThat(sink.lost).isEqualTo(25);
    assertThat(sink.entries).extracting(e -> e[1]).startsWith(25L).endsWith(39L).hasSize(15);
  }

  @Test
  void concurrentGrowthNeverYieldsTornEntriesAndAccountsForEverySwitch() throws Exception {
    // Fresh rings keep the writer growing while the reader drains; bursts outrun the reader.
    int rings = 200;
    int perRing = 5_000;
    TimelineRing[] all = new TimelineRing[rings];
    for (int r = 0; r < rings; r++) {
      all[r] = new TimelineRing(r, 1024);
    }
    CheckingSink[] sinks = new CheckingSink[rings];
    for (int r = 0; r < rings; r++) {
      sinks[r] = new CheckingSink();
    }
    Thread writer =
        new Thread(
            () -> {
              for (TimelineRing ring : all) {
                for (int seq = 0; seq < perRing; seq++) {
                  ring.append(3L * seq + 1, seq);
                }
              }
            });
    writer.start();
    while (writer.isAlive()) {
      for (int r = 0; r < rings; r++) {
        all[r].drainTo(sinks[r], scratch);
      }
    }
    writer.join();
    for (int r = 0; r < rings; r++) {
      all[r].drainTo(sinks[r], scratch);
      assertThat(sinks[r].torn).as("torn entries of ring %d", r).isZero();
      assertThat(sinks[r].outOfOrder).as("entries out of order in ring %d", r).isZero();
      assertThat(sinks[r].entries.size() + sinks[r].lost).as("entries of ring %d", r).isEqualTo(perRing);
      assertThat(sinks[r].lastSeq).isEqualTo(perRing - 1);
    }
  }
}
