package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Short-lived threads end while drains run: every entry arrives, every ring is freed once. */
class ThreadExitTest {
  private static final int WAVES = 20;
  private static final int THREADS_PER_WAVE = 25;
  private static final int FIRST_CONTEXT = 700_000;

  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  @Test
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  void entriesOfEndedThreadsAreDeliveredAndTheirRingsFreed() throws Exception {
    RecordingSink sink = new RecordingSink();
    AtomicBoolean stop = new AtomicBoolean();
    Thread drainer = new Thread(() -> {
      while (!stop.get()) {
        bridge.drain(sink);
      }
    });
    drainer.start();

    Set<Long> threads = new HashSet<>();
    for (int wave = 0; wave < WAVES; wave++) {
      List<Thread> started = new ArrayList<>();
      for (int i = 0; i < THREADS_PER_WAVE; i++) {
        int context = FIRST_CONTEXT + wave * THREADS_PER_WAVE + i;
        Thread thread = new Thread(() -> bridge.switchTo(context));
        thread.start();
        started.add(thread);
      }
      for (Thread thread : started) {
        thread.join();
        threads.add(thread.getId());
      }
    }
    stop.set(true);
    drainer.join(); // the drainer's sink writes happen-before the reads below

    sink.drainUntil(bridge, () -> sink.ended.containsAll(threads));
    Set<String> contexts = new HashSet<>();
    for (long thread : threads) {
      List<String> events = sink.eventsOf(thread);
      assertThat(events).hasSize(2).endsWith("ended");
      contexts.add(events.get(0));
    }
    assertThat(contexts).hasSize(WAVES * THREADS_PER_WAVE)
        .allSatisfy(c -> assertThat(Integer.parseInt(c)).isGreaterThanOrEqualTo(FIRST_CONTEXT));
  }

  @Test
  void theDrainForgetsEveryFreedRingEvenWhereNoThreadEndIsReported() throws Exception {
    RecordingSink sink = new RecordingSink();
    bridge.switchTo(0); // this thread's ring exists before the baseline is taken
    bridge.drain(sink);
    int baseline = NativeContextBridge.ringCount0();
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < THREADS_PER_WAVE; i++) {
      long id = FIRST_CONTEXT + i;
      // Entries of a virtual thread: an exiting carrier reports no end for them.
      Thread thread = new Thread(() -> NativeContextBridge.switchTo0((int) id, id, true));
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join();
    }
    sink.drainUntil(bridge, () -> NativeContextBridge.ringCount0() <= baseline);

    assertThat(bridge.ringsKeptByDrain()).isLessThanOrEqualTo(NativeContextBridge.ringCount0());
  }
}
