package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Writers hammer their rings while a drain loop runs; nothing torn, every switch accounted. */
class NativeRingConcurrencyTest {
  private static final int WRITERS = 4;
  private static final int SWITCHES = 2_000_000;
  /** Writer w writes entry seq with Java thread id (w + 1) * ID_BASE + seq and context seq. */
  private static final long ID_BASE = 1L << 40;

  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  /** Checks each entry against the relation the writers encoded; keeps counts only. */
  private static final class CheckingSink implements TimelineSink {
    final long[] delivered = new long[WRITERS];
    final long[] lost = new long[WRITERS];
    final long[] lastSeq = {-1, -1, -1, -1};
    final long[] lastTime = new long[WRITERS];
    long torn;
    long outOfOrder;

    @Override
    public void switched(long javaThreadId, long nanoTime, int contextId) {
      int writer = writerOf(javaThreadId);
      if (writer < 0) {
        return; // another test's thread
      }
      if (javaThreadId % ID_BASE != contextId) {
        torn++;
      }
      if (contextId <= lastSeq[writer] || nanoTime < lastTime[writer]) {
        outOfOrder++;
      }
      lastSeq[writer] = contextId;
      lastTime[writer] = nanoTime;
      delivered[writer]++;
    }

    @Override
    public void lost(long javaThreadId, long count) {
      int writer = writerOf(javaThreadId);
      if (writer >= 0) {
        lost[writer] += count;
      }
    }

    @Override
    public void threadEnded(long javaThreadId) {}

    private static int writerOf(long javaThreadId) {
      long writer = javaThreadId / ID_BASE - 1;
      return writer >= 0 && writer < WRITERS ? (int) writer : -1;
    }
  }

  @Test
  void concurrentWritersNeverYieldTornEntriesAndAccountForEverySwitch() throws Exception {
    List<Thread> writers = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    for (int w = 0; w < WRITERS; w++) {
      long base = (w + 1) * ID_BASE;
      writers.add(new Thread(() -> {
        awaitUninterruptibly(go);
        for (int seq = 0; seq < SWITCHES; seq++) {
          NativeContextBridge.switchTo0(seq, base + seq, false);
        }
      }));
    }
    CheckingSink sink = new CheckingSink();
    writers.forEach(Thread::start);
    bridge.drain(sink);
    go.countDown(); // the writers start while the drain loop runs
    while (writers.stream().anyMatch(Thread::isAlive)) {
      bridge.drain(sink);
    }
    for (Thread writer : writers) {
      writer.join();
    }
    bridge.drain(sink);

    assertThat(sink.torn).isZero();
    assertThat(sink.outOfOrder).isZero();
    for (int w = 0; w < WRITERS; w++) {
      assertThat(sink.delivered[w] + sink.lost[w]).as("writer %d", w).isEqualTo(SWITCHES);
      assertThat(sink.lastSeq[w]).isEqualTo(SWITCHES - 1);
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
