package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Profiling switched off: threads that had rings end meanwhile, and nothing drains and nothing of
 * ours polls; their rings are freed all the same (the native ring by the ending thread itself, the
 * Java ring by the garbage collector). Switched on again, a new thread's switches arrive.
 */
class SwitchedOffRingsTest {
  private static final int THREADS = 16;
  private static final int FIRST_CONTEXT = 900_000;

  @Test
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  void nativeRingsOfThreadsEndingWhileOffAreFreedWhileOff() throws Exception {
    NativeContextBridge bridge = NativeTestSupport.bridge();
    bridge.drain(new RecordingSink()); // frees the rings of threads that ended before this test
    int baseline = bridge.ringCount();
    long endedBeforeOff = TestThreads.runToOsThreadExit(() -> bridge.switchTo(FIRST_CONTEXT - 1));
    CountDownLatch end = new CountDownLatch(1);
    List<Thread> threads = startThreadsWithRings(bridge, end);
    assertThat(bridge.ringCount()).isEqualTo(baseline + THREADS + 1);

    bridge.switchedOff(true);
    try {
      assertThat(bridge.ringCount()).as("the ring of the thread that ended before, freed at switch-off")
          .isLessThanOrEqualTo(baseline + THREADS);
      end.countDown();
      for (Thread thread : threads) {
        thread.join();
      }
      awaitOrFail(() -> bridge.ringCount() <= baseline, () -> "rings while off: " + bridge.ringCount()
          + ", before the threads: " + baseline);
      RecordingSink whileOff = new RecordingSink();
      bridge.drain(whileOff);
      assertThat(whileOff.events).as("a drain while off").isEmpty();
    } finally {
      bridge.switchedOff(false);
    }

    long after = TestThreads.runToOsThreadExit(() -> bridge.switchTo(FIRST_CONTEXT + 100));
    RecordingSink sink = new RecordingSink();
    sink.drainUntil(bridge, () -> sink.ended.contains(after));
    assertThat(sink.eventsOf(after)).containsExactly(String.valueOf(FIRST_CONTEXT + 100), "ended");
    assertThat(sink.eventsOf(endedBeforeOff)).as("freed undelivered at switch-off").isEmpty();
    for (Thread thread : threads) {
      assertThat(sink.eventsOf(thread.getId())).as("ended while off").isEmpty();
    }
  }

  @Test
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  void javaRingsOfThreadsEndingWhileOffAreCollectedWhileOff() throws Exception {
    JavaContextBridge bridge = new JavaContextBridge(1024);
    bridge.switchTo(FIRST_CONTEXT - 1); // this thread's ring lives on
    CountDownLatch end = new CountDownLatch(1);
    List<Thread> threads = startThreadsWithRings(bridge, end);
    assertThat(bridge.ringCount()).isEqualTo(THREADS + 1);

    bridge.switchedOff(true);
    end.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    awaitOrFail(() -> {
      System.gc(); // the ended threads' rings are only weakly held now
      return bridge.ringCount() == 1;
    }, () -> "rings while off: " + bridge.ringCount());

    bridge.switchedOff(false);
    bridge.switchTo(FIRST_CONTEXT + 100);
    RecordingSink sink = new RecordingSink();
    bridge.drain(sink);
    long me = Thread.currentThread().getId();
    assertThat(sink.events).containsExactly(me + ":" + (FIRST_CONTEXT - 1), me + ":" + (FIRST_CONTEXT + 100));
  }

  /**
   * Threads end while another thread switches off and on again and again and a third drains: each
   * ring is unlinked once, by the drainer or by its own thread (a ring freed twice, or a list
   * walked through a freed ring, would crash the JVM), and in the end none is left over.
   */
  @Test
  void threadsEndingWhileSwitchingOffAndOnFreeEachRingOnce() throws Exception {
    NativeContextBridge bridge = NativeTestSupport.bridge();
    bridge.drain(new RecordingSink());
    int baseline = bridge.ringCount();
    AtomicBoolean stop = new AtomicBoolean();
    Thread drainer = new Thread(() -> {
      RecordingSink sink = new RecordingSink();
      while (!stop.get()) {
        bridge.drain(sink);
        sink.events.clear();
        sink.times.clear();
      }
    });
    Thread toggler = new Thread(() -> {
      for (boolean off = true; !stop.get(); off = !off) {
        bridge.switchedOff(off);
      }
      bridge.switchedOff(false);
    });
    drainer.start();
    toggler.start();
    try {
      for (int wave = 0; wave < 60; wave++) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
          int context = FIRST_CONTEXT + i;
          Thread thread = new Thread(() -> bridge.switchTo(context));
          thread.start();
          threads.add(thread);
        }
        for (Thread thread : threads) {
          thread.join();
        }
      }
    } finally {
      stop.set(true);
      toggler.join();
      drainer.join();
    }
    awaitOrFail(() -> {
      bridge.drain(new RecordingSink());
      return bridge.ringCount() <= baseline;
    }, () -> "rings left: " + bridge.ringCount() + ", before: " + baseline);
  }

  /** Threads that switch once (so each has a ring) and then wait for {@code end}. */
  private static List<Thread> startThreadsWithRings(ContextBridge bridge, CountDownLatch end)
      throws InterruptedException {
    CountDownLatch switched = new CountDownLatch(THREADS);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      int context = FIRST_CONTEXT + i;
      Thread thread = new Thread(() -> {
        bridge.switchTo(context);
        switched.countDown();
        try {
          end.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      thread.start();
      threads.add(thread);
    }
    switched.await();
    return threads;
  }

  private static void awaitOrFail(BooleanSupplier done, Supplier<String> state) {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("not reached within 20 s; " + state.get());
      }
      Thread.onSpinWait();
    }
  }
}
