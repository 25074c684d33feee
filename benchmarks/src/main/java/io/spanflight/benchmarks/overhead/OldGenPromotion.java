package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The harness's {@code --tenure true}: the bytes G1 promotes into the old generation in the measured
 * window, G1's own exact count from {@code jdk.G1EvacuationOldStatistics} (one event per young or
 * mixed collection): {@code used}, the bytes copied into promotion buffers (PLABs), and {@code
 * directAllocated}, the objects too large for one, copied into the old generation directly. What a
 * JVM tenures it must later collect with mixed or full collections: objects that live seconds,
 * then die old. Needs G1 (the default collector); with another collector the figures are zero.
 */
final class OldGenPromotion extends WindowRecording {
  static final String EVENT = "jdk.G1EvacuationOldStatistics";
  private static final String JFC = """
      <?xml version="1.0" encoding="UTF-8"?>
      <configuration version="2.0" label="harness old-generation promotion">
        <event name="jdk.G1EvacuationOldStatistics">
          <setting name="enabled">true</setting>
        </event>
      </configuration>
      """;
  private static final double MB = 1024.0 * 1024.0;

  OldGenPromotion(Path logs) {
    super("spanflight-harness-tenure", JFC, logs);
  }

  @Override
  String describe(long pid, Path file, Instant windowStart, Instant windowEnd, long requests) throws IOException {
    return of(events(pid, file), windowStart, windowEnd).describe(Duration.between(windowStart, windowEnd), requests);
  }

  /**
   * The promotions of {@code events} (any other event is passed over) by the collections that started
   * from {@code windowStart} to before {@code windowEnd}: not those of the idle moments after the load,
   * while other recordings are dumped.
   */
  static Promoted of(List<RecordedEvent> events, Instant windowStart, Instant windowEnd) {
    long inPlabs = 0;
    long outside = 0;
    int collections = 0;
    for (RecordedEvent event : events) {
      Instant start = event.getStartTime();
      if (event.getEventType().getName().equals(EVENT) && !start.isBefore(windowStart) && start.isBefore(windowEnd)) {
        inPlabs += event.getLong("statistics.used");
        outside += event.getLong("statistics.directAllocated");
        collections++;
      }
    }
    return new Promoted(inPlabs, outside, collections);
  }

  /** Bytes promoted into PLABs and outside them by {@code collections} collections. */
  record Promoted(long inPlabs, long outside, int collections) {
    String describe(Duration window, long requests) {
      double minutes = window.toMillis() / 60_000.0;
      return String.format(Locale.ROOT,
          "old generation: %.2f MB a minute promoted in PLABs + %.2f outside, %.3f MB per 1 000 requests"
              + " (%d collections in %.0f s)",
          inPlabs / MB / minutes, outside / MB / minutes,
          requests == 0 ? Double.NaN : (inPlabs + outside) / MB / requests * 1000, collections,
          window.toMillis() / 1000.0);
    }
  }
}
