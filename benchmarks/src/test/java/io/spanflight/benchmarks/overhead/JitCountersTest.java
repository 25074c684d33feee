package io.spanflight.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JitCountersTest {
  private static final String BEFORE = """
      java.ci.totalTime=701476146
      sun.ci.lastMethod="jdk/internal/classfile/impl/EntryMap put"
      sun.ci.standardBytes=94890
      sun.ci.totalBailouts=1
      sun.ci.totalCompiles=1156
      sun.ci.totalInvalidates=0
      sun.os.hrt.frequency=1000000000
      """;

  @Test
  void readsTheCountersAndConvertsCompileTimeToMilliseconds() {
    Map<String, Long> counters = JitCounters.parse(BEFORE);
    assertEquals(1156L, counters.get("sun.ci.totalCompiles"));
    assertEquals(94890L, counters.get("sun.ci.standardBytes"));
    assertEquals(701L, counters.get("java.ci.totalTime"));
  }

  @Test
  void givesWhatChangedInsideTheWindow() {
    String after = BEFORE.replace("totalCompiles=1156", "totalCompiles=1200").replace("totalInvalidates=0", "totalInvalidates=3")
        .replace("totalTime=701476146", "totalTime=1701476146");
    Map<String, Long> delta = JitCounters.since(JitCounters.parse(BEFORE), JitCounters.parse(after));
    assertEquals(44L, delta.get("sun.ci.totalCompiles"));
    assertEquals(3L, delta.get("sun.ci.totalInvalidates"));
    assertEquals(1000L, delta.get("java.ci.totalTime"));
    assertEquals(0L, delta.get("sun.ci.standardBytes"));
  }

  @Test
  void isEmptyWhenACounterIsMissing() {
    assertTrue(JitCounters.parse("sun.ci.totalCompiles=3\n").isEmpty());
    assertTrue(JitCounters.since(Map.of(), JitCounters.parse(BEFORE)).isEmpty());
  }
}
