package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class JavaContextBridgeTest {

  @Test
  @SuppressWarnings("deprecation")
  void keysEntriesByJavaThreadAndRetiresEndedThreads() throws Exception {
    JavaContextBridge bridge = new JavaContextBridge(16);
    Thread worker =
        new Thread(
            () -> {
              bridge.switchTo(5);
              bridge.switchTo(0);
            });
    worker.start();
    worker.join();
    bridge.switchTo(9);

    RecordingSink sink = new RecordingSink();
    bridge.drain(sink);

    long w = worker.getId();
    long me = Thread.currentThread().getId();
    assertThat(sink.events).containsSubsequence(w + ":5", w + ":0", w + ":ended");
    assertThat(sink.events).contains(me + ":9");
    assertThat(sink.ringCounts).as("entries delivered per ring").containsExactlyInAnyOrder(2, 1);
    assertThat(bridge.ringCount()).isEqualTo(1);
  }

  @Test
  void refusesCapacityThatIsNotAPowerOfTwo() {
    assertThatThrownBy(() -> new JavaContextBridge(1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
  }
  /**
   * Threads switch to contexts 1, 2, 3, ... in bursts of 3 to 3000 switches, each burst after the
   * next drain pass: rings grow while drained, and the largest bursts overflow them. Each thread's
   * delivered contexts rise one by one except across a counted loss, in time order, and delivered
   * plus lost is every switch.
   */
  @Test
  @SuppressWarnings("deprecation")
  void ringsThatGrowWhileDrainedDeliverEverySwitchInOrderOrCountItLost() throws Exception {
    JavaContextBridge bridge = new JavaContextBridge(1024);
    AtomicLong drains = new AtomicLong();
    int threads = 4;
    int switches = 100_000;
    Thread[] writers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      writers[t] = new Thread(() -> {
        int burst = 3;
        for (int seq = 1; seq <= switches; seq++) {
          bridge.switchTo(seq);
          if (seq % burst == 0) {
            awaitNextDrainPass(drains);
            burst = burst > 3000 ? 3 : burst * 2 + 1;
          }
        }
      });
      writers[t].start();
    }
    CheckingSink sink = new CheckingSink();
    while (anyAlive(writers)) {
      bridge.drain(sink);
      drains.incrementAndGet();
    }
    bridge.drain(sink);

    for (Thread writer : writers) {
      long id = writer.getId();
      assertThat(sink.wrong.getOrDefault(id, 0L)).as("entries out of sequence, thread %d", id).isZero();
      assertThat(sink.last.get(id)).as("last context of thread %d", id).isEqualTo(switches);
      assertThat(sink.accounted.get(id)).as("switches delivered or lost, thread %d", id).isEqualTo(switches);
      assertThat(sink.delivered.get(id)).as("switches delivered, thread %d", id).isGreaterThan(switches / 2);
    }
  }

  /** Waits until a drain pass has started and ended after this call. */
  private static void awaitNextDrainPass(AtomicLong drains) {
    long target = drains.get() + 2;
    while (drains.get() < target) {
      Thread.onSpinWait();
    }
  }

  private static boolean anyAlive(Thread[] threads) {
    for (Thread thread : threads) {
      if (thread.isAlive()) {
        return true;
      }
    }
    return false;
  }

  /** Per thread: the last context and time delivered, what was delivered or lost, what was not next. */
  private static final class CheckingSink implements TimelineSink {
    final Map<Long, Integer> last = new HashMap<>();
    final Map<Long, Long> lastTime = new HashMap<>();
    final Map<Long, Long> accounted = new HashMap<>();
    final Map<Long, Long> lostSince = new HashMap<>();
    final Map<Long, Long> wrong = new HashMap<>();
    final Map<Long, Long> delivered = new HashMap<>();

    @Override
    public void switched(long javaThreadId, long nanoTime, int contextId) {
      int expected = last.getOrDefault(javaThreadId, 0) + 1 + lostSince.getOrDefault(javaThreadId, 0L).intValue();
      if (contextId != expected || nanoTime < lastTime.getOrDefault(javaThreadId, Long.MIN_VALUE)) {
        wrong.merge(javaThreadId, 1L, Long::sum);
      }
      last.put(javaThreadId, contextId);
      lastTime.put(javaThreadId, nanoTime);
      lostSince.put(javaThreadId, 0L);
      accounted.merge(javaThreadId, 1L, Long::sum);
      delivered.merge(javaThreadId, 1L, Long::sum);
    }

    @Override
    public void lost(long javaThreadId, long count) {
      lostSince.merge(javaThreadId, count, Long::sum);
      accounted.merge(javaThreadId, count, Long::sum);
    }

    @Override
    public void threadEnded(long javaThreadId) {}
  }
}
