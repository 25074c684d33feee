package io.spanflight.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class NativeMemoryTest {
  @Test
  void readsTheTotalAndEachArea() {
    String summary = """
        12345:

        Native Memory Tracking:

        Total: reserved=2456789KB, committed=345678KB
               malloc: 45678KB #123456
               mmap:   reserved=2411111KB, committed=300000KB

        -                 Java Heap (reserved=1048576KB, committed=262144KB)
                                    (mmap: reserved=1048576KB, committed=262144KB)

        -                     Class (reserved=1050000KB, committed=12000KB)
                                    (classes #9000)

        -                   Tracing (reserved=2048KB, committed=2048KB)
                                    (malloc=2048KB #100)
        """;
    Map<String, Long> committed = NativeMemory.parse(summary);
    assertEquals(345678L * 1024, committed.get(NativeMemory.TOTAL));
    assertEquals(262144L * 1024, committed.get("Java Heap"));
    assertEquals(12000L * 1024, committed.get("Class"));
    assertEquals(2048L * 1024, committed.get("Tracing"));
    assertEquals(4, committed.size());
  }

  @Test
  void isEmptyWhenTrackingIsOff() {
    assertTrue(NativeMemory.parse("12345:\nNative memory tracking is not enabled\n").isEmpty());
  }
}
