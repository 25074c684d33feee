package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineRingTest {

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
    assertThat(ring.drainTo(sink)).isEqualTo(5);
    assertThat(ring.drainTo(sink)).isZero();
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
    ring.drainTo(sink);
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
      ring.drainTo(sink);
    }
    writer.join();
    ring.drainTo(sink);

    assertThat(sink.torn).isZero();
    assertThat(sink.outOfOrder).isZero();
    assertThat(sink.entries.size() + sink.lost).isEqualTo(total);
    assertThat(sink.lastSeq).isEqualTo(total - 1);
  }
}
