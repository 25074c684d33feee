package io.spanflight.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeapResidencyTest {
  @Test
  void countsOnlyTheMappingsInsideTheHeapRange() {
    List<String> smaps = List.of(
        "5600a000-5600b000 r-xp 00000000 08:01 123 /usr/bin/java",
        "Rss:                   4 kB",
        "c0000000-d0000000 rw-p 00000000 00:00 0 ",
        "Size:             262144 kB",
        "Rss:              17256 kB",
        "d0000000-100000000 ---p 00000000 00:00 0 ",
        "Rss:                  0 kB",
        "100000000-100400000 rw-p 00000000 00:00 0 ",
        "Rss:               1024 kB",
        "7f0000000000-7f0000100000 rw-p 00000000 00:00 0 ",
        "Rss:                512 kB");
    assertEquals(17256L * 1024, HeapResidency.residentBetween(smaps, 0xc0000000L, 0x100000000L));
  }

  @Test
  void splitsARunningJvm() {
    HeapResidency.Split split = HeapResidency.of(ProcessHandle.current().pid());
    assertTrue(split.known(), "jcmd GC.heap_info and /proc/self/smaps give a split");
    assertTrue(split.heapRssBytes() > 0 && split.heapRssBytes() < split.rssBytes(), split.toString());
    assertTrue(split.heapUsedBytes() > 0, split.toString());
  }

  @Test
  void readsTheLiveHeapAfterAFullGc() {
    long pid = ProcessHandle.current().pid();
    byte[][] garbage = new byte[64][];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = new byte[1 << 20]; // 64 MB that the full GC frees once unreferenced
    }
    long withGarbage = HeapResidency.of(pid).heapUsedBytes();
    garbage = null;
    long live = HeapResidency.liveAfterFullGc(pid);
    assertTrue(live > 0, "jcmd GC.run and GC.heap_info give the live heap: " + live);
    assertTrue(live < withGarbage - (32L << 20), "the full GC freed the 64 MB of garbage: " + live + " of " + withGarbage);
  }
}
