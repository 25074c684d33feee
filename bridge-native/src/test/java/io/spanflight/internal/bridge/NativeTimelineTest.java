package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The native rings through the native drain; mirrors TimelineRingTest. */
class NativeTimelineTest {
  private final NativeContextBridge bridge = NativeTestSupport.bridge();
  private final int capacity = bridge.ringCapacity();
  private final RecordingSink sink = new RecordingSink();

  @Test
  void deliversEntriesInOrderOnTheNanoTimeClockThenTheEnd() throws Exception {
    long[] window = new long[2];
    long thread = TestThreads.runToOsThreadExit(() -> {
      window[0] = System.nanoTime();
      for (int seq = 0; seq < 5; seq++) {
        bridge.switchTo(100 + seq);
      }
      window[1] = System.nanoTime();
    });
    bridge.drain(sink);

    assertThat(sink.eventsOf(thread)).containsExactly("100", "101", "102", "103", "104", "ended");
    int first = sink.events.indexOf(thread + ":100");
    List<Long> times = sink.times.subList(first, first + 5);
    assertThat(times).isSorted().allSatisfy(t -> assertThat(t).isBetween(window[0], window[1]));
  }

  @Test
  void reportsHowManyEntriesEachRingDelivered() throws Exception {
    bridge.drain(new RecordingSink()); // rings of earlier tests out of the way
    TestThreads.runToOsThreadExit(() -> write(700, 1, 3));
    TestThreads.runToOsThreadExit(() -> write(800, 2, 5));
    bridge.drain(sink);

    assertThat(sink.ringCounts).contains(3, 5);
    assertThat(sink.ringCounts.stream().mapToLong(Integer::longValue).sum()).isEqualTo(sink.switches());
  }

  @Test
  void reportsExactlyTheOverwrittenEntriesAsLost() throws Exception {
    long thread = TestThreads.runToOsThreadExit(() -> {
      for (int seq = 0; seq < capacity + 12; seq++) {
        bridge.switchTo(seq);
      }
    });
    bridge.drain(sink);

    // 12 were overwritten; the oldest survivor (12) could be mid-rewrite, so it is dropped too.
    List<String> expected = new ArrayList<>(List.of("lost13"));
    for (int seq = 13; seq < capacity + 12; seq++) {
      expected.add(Integer.toString(seq));
    }
    expected.add("ended");
    assertThat(sink.eventsOf(thread)).containsExactlyElementsOf(expected);
  }

  @Test
  void chargesLossToTheLastThreadDeliveredBeforeTheGapElseTheFirstAfterIt() throws Exception {
    TestThreads.runToOsThreadExit(() -> {
      // Virtual threads 1001 and 1002 take turns on this carrier; a drain runs in between.
      write(1000, 1001, 3);
      bridge.drain(sink);
      write(2000, 1002, capacity + 3);
      bridge.drain(sink);
    });
    assertThat(sink.eventsOf(1001)).containsExactly("1000", "1001", "1002", "lost4");
    assertThat(sink.eventsOf(1002)).hasSize(capacity - 1).startsWith("2004");

    TestThreads.runToOsThreadExit(() -> {
      write(3000, 1003, 5); // all overwritten before the first drain
      write(4000, 1004, capacity);
      bridge.drain(sink);
    });
    assertThat(sink.eventsOf(1003)).isEmpty();
    assertThat(sink.eventsOf(1004)).hasSize(capacity).startsWith("lost6", "4001");
  }

  @Test
  void aRingLastWrittenByAVirtualThreadEndsWithoutEndingThatThread() throws Exception {
    long carrier = TestThreads.runToOsThreadExit(() -> {
      bridge.switchTo(600);
      write(500, 1005, 1);
    });
    bridge.drain(sink);

    assertThat(sink.eventsOf(carrier)).containsExactly("600");
    assertThat(sink.eventsOf(1005)).containsExactly("500"); // no end: it may live on elsewhere
  }

  @Test
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  void aVirtualThreadSwitchIsRecordedUnderItsOwnIdOnItsCarrier() throws Exception {
    Method startVirtualThread = startVirtualThreadMethod();
    bridge.define(650, 0L, 0L, 0L, (byte) 1, new byte[0], ContextBridge.OWN_ATTRIBUTES);
    byte[][] record = new byte[1][];
    Runnable body = () -> {
      bridge.switchTo(650);
      record[0] = ExternalRecordReader.readOwnThread(); // the carrier's record
      bridge.switchTo(0);
    };
    Thread virtual = (Thread) startVirtualThread.invoke(null, body);
    virtual.join();
    bridge.drain(sink);

    assertThat(record[0][24]).as("valid").isEqualTo((byte) 1);
    assertThat(sink.eventsOf(virtual.getId())).containsExactly("650", "0");
  }

  private static Method startVirtualThreadMethod() {
    try {
      return Thread.class.getMethod("startVirtualThread", Runnable.class);
    } catch (NoSuchMethodException e) {
      assumeTrue(false, "virtual threads need Java 21+");
      throw new AssertionError(e);
    }
  }

  /** Appends {@code count} entries of contexts first, first + 1, ... for a virtual thread. */
  private static void write(int first, long virtualThreadId, int count) {
    for (int i = 0; i < count; i++) {
      NativeContextBridge.switchTo0(first + i, virtualThreadId, true);
    }
  }
}
