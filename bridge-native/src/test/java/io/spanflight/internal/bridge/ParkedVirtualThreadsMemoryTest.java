package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * What capture costs per live virtual thread: 100 000 virtual threads park, each switches a span
 * on and off once, and parks again at the same place. The live heap after a full GC, before
 * against after the switches (less the threads' own stack chunks), is what the bridge holds for
 * them: rings, their registration, the thread-local entry. For the native bridge the rings it allocated meanwhile
 * (one per OS thread that switched: the carriers) are added. Target (issue 18): at most 1 KB per
 * idle virtual thread, 100 MB in total.
 */
@EnabledForJreRange(min = JRE.JAVA_21) // virtual threads; the build runs on 25
class ParkedVirtualThreadsMemoryTest {
  private static final Logger LOG = Logger.getLogger(ParkedVirtualThreadsMemoryTest.class.getName());
  private static final int THREADS = 100_000;
  private static final long MAX_BYTES_PER_THREAD = 1024;
  private static final long MAX_TOTAL_BYTES = 100_000_000;
  /** Bytes of one native ring besides its entries: two cache lines (timeline_ring.c). */
  private static final long NATIVE_RING_HEADER = 128;
  /** sizeof(sf_timeline_entry), fixed by spanflight.h. */
  private static final long NATIVE_ENTRY = 24;
  /** A virtual thread's frames while it is not mounted. */
  private static final String STACK_CHUNK = "jdk.internal.vm.StackChunk";

  /** Entries the last measurement's drains reported lost. */
  private long lost;

  @Test
  void javaBridgeHoldsAtMostOneKilobytePerParkedVirtualThread() throws Throwable {
    JavaContextBridge bridge = new JavaContextBridge(4096); // the default ring size
    long bytes = heapGrowthOfSwitchingOnce(bridge);

    LOG.info(() -> String.format("java bridge: %d parked virtual threads hold %.1f MB, %d bytes each",
        THREADS, bytes / 1e6, bytes / THREADS));
    assertThat(lost).as("entries lost").isZero(); // each thread's own ring holds its two
    assertThat(bridge.ringCount()).isEqualTo(THREADS);
    assertThat(bytes / THREADS).as("bytes per parked virtual thread").isLessThanOrEqualTo(MAX_BYTES_PER_THREAD);
    assertThat(bytes).as("bytes for %d parked virtual threads", THREADS).isLessThanOrEqualTo(MAX_TOTAL_BYTES);
  }

  @Test
  void nativeBridgeHoldsAtMostOneKilobytePerParkedVirtualThread() throws Throwable {
    NativeContextBridge bridge = NativeTestSupport.bridge();
    int ringsBefore = bridge.ringCount();
    long heap = heapGrowthOfSwitchingOnce(bridge);
    long rings = bridge.ringCount() - ringsBefore;
    long nativeBytes = rings * (NATIVE_RING_HEADER + NATIVE_ENTRY * bridge.ringCapacity());
    long bytes = heap + nativeBytes;

    LOG.info(() -> String.format(
        "native bridge: %d parked virtual threads hold %.1f MB of heap and %d new rings (%.2f MB),"
            + " %d bytes each",
        THREADS, heap / 1e6, rings, nativeBytes / 1e6, bytes / THREADS));
    assertThat(rings).as("rings: one per carrier that ran a switch, none per virtual thread")
        .isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors() * 4L);
    assertThat(bytes / THREADS).as("bytes per parked virtual thread").isLessThanOrEqualTo(MAX_BYTES_PER_THREAD);
    assertThat(bytes).as("bytes for %d parked virtual threads", THREADS).isLessThanOrEqualTo(MAX_TOTAL_BYTES);
  }

  /**
   * Virtual threads park, wake and park again once without switching (the JDK's first re-park
   * costs memory of its own), then once more, each switching once while a drainer runs. Returns
   * the growth of the live heap over that second cycle, less the virtual threads' stack chunks
   * (the JDK's, not the bridge's: their size varies from one re-park to the next).
   */
  private long heapGrowthOfSwitchingOnce(ContextBridge bridge) throws Throwable {
    CountingSink sink = new CountingSink();
    bridge.drain(sink); // what earlier tests left
    sink.switched = 0;
    sink.lost = 0;
    Group group = new Group();
    try {
      group.cycle(() -> {});
      HeapHistogram before = HeapHistogram.take();
      Thread drainer = startDrainer(bridge, sink, group);
      group.cycle(() -> {
        bridge.switchTo(5);
        bridge.switchTo(0);
      });
      drainer.join();
      bridge.drain(sink);
      HeapHistogram after = HeapHistogram.take();

      assertThat(sink.switched + sink.lost).as("entries drained or lost").isEqualTo(2L * THREADS);
      LOG.info(() -> String.format("%s: %d entries drained, %d lost; heap growth: %s",
          bridge.implementation(), sink.switched, sink.lost, after.largestGrowthSince(before, 12)));
      lost = sink.lost;
      return after.total() - before.total() - (after.of(STACK_CHUNK) - before.of(STACK_CHUNK));
    } finally {
      group.end();
    }
  }

  /** Drains while the measured group switches, as Spanflight's drain thread does. */
  private static Thread startDrainer(ContextBridge bridge, CountingSink sink, Group measured) {
    int cycle = measured.cycles + 1;
    Thread drainer = new Thread(() -> {
      while (measured.cycles < cycle || measured.woken.get() < THREADS) {
        bridge.drain(sink);
      }
    }, "test-drainer");
    drainer.start();
    return drainer;
  }

  /** Virtual threads that each run the cycle's action every time they are woken, then park again. */
  private static final class Group {
    final Thread[] threads = new Thread[THREADS];
    final AtomicInteger woken = new AtomicInteger();
    volatile int cycles;
    volatile boolean ended;
    volatile Runnable action;

    Group() throws Throwable {
      MethodHandle start = virtualThreadStarter();
      for (int i = 0; i < THREADS; i++) {
        threads[i] = (Thread) start.invoke((Runnable) () -> {
          int seen = 0;
          while (true) {
            seen = parkUntilNextCycle(seen); // the same frames at every park
            if (ended) {
              return;
            }
            action.run();
            woken.incrementAndGet();
          }
        });
      }
      awaitAllParked();
    }

    /** Wakes every thread once and waits until all have run {@code action} and parked again. */
    void cycle(Runnable action) {
      this.action = action;
      woken.set(0);
      cycles++;
      for (Thread thread : threads) {
        LockSupport.unpark(thread);
      }
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (woken.get() < THREADS) {
        if (System.nanoTime() - deadline > 0) {
          fail("only " + woken.get() + " of " + THREADS + " virtual threads ran within 60 s");
        }
        Thread.onSpinWait();
      }
      awaitAllParked();
    }

    private int parkUntilNextCycle(int seen) {
      while (cycles == seen && !ended) {
        LockSupport.park(this);
      }
      return cycles;
    }

    private void awaitAllParked() {
      long deadline = System.nanoTime() + 60_000_000_000L;
      for (Thread thread : threads) {
        while (thread.getState() != Thread.State.WAITING) {
          if (System.nanoTime() - deadline > 0) {
            fail(thread + " did not park within 60 s: " + thread.getState());
          }
          Thread.onSpinWait();
        }
      }
    }

    void end() throws InterruptedException {
      ended = true;
      for (Thread thread : threads) {
        LockSupport.unpark(thread);
      }
      for (Thread thread : threads) {
        thread.join();
      }
    }
  }

  /** {@code Thread.ofVirtual()::start}: JDK 21 API, looked up reflectively (tests compile for 17). */
  private static MethodHandle virtualThreadStarter() throws ReflectiveOperationException {
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    Class<?> builderType = Class.forName("java.lang.Thread$Builder");
    MethodHandle start = MethodHandles.publicLookup()
        .findVirtual(builderType, "start", MethodType.methodType(Thread.class, Runnable.class));
    return start.bindTo(builder);
  }

  private static final class CountingSink implements TimelineSink {
    long switched;
    long lost;

    @Override
    public void switched(long javaThreadId, long nanoTime, int contextId) {
      switched++;
    }

    @Override
    public void lost(long javaThreadId, long count) {
      lost += count;
    }

    @Override
    public void threadEnded(long javaThreadId) {}
  }
}
