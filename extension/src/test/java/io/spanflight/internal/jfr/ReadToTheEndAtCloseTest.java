package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.PlainJoiners;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * At our close, Spanflight's reader reads what JFR still held: events committed just before the
 * close, which JFR had not yet flushed (it flushes about once a second), are written when our
 * recording stops and read to the end of its last chunk before the stream ends. Without that
 * read, they were lost at every switch-off and shutdown (the last second of events).
 */
class ReadToTheEndAtCloseTest {
  private static final int LAST_EVENTS = 50;

  @Test
  void eventsCommittedRightBeforeTheCloseAreRead() {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of()));
    ProfileCollector collector = new ProfileCollector();
    SampleJoiner joiner = PlainJoiners.into(collector);
    JfrSampleStream stream = new JfrSampleStream(config.sources(), joiner, collector, Duration.ofSeconds(30));
    try {
      stream.start();
      // the stream commits a calibration as it starts to read: once it arrives, ours reads
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (joiner.counts().calibrations() == 0) {
        assertThat(System.nanoTime() - deadline).as("the stream reads: " + joiner.counts().summary()).isNegative();
        LockSupport.parkNanos(20_000_000L);
      }
      long before = joiner.counts().calibrations();

      for (int i = 0; i < LAST_EVENTS; i++) {
        CalibrationEvent.commitNow();
      }
      stream.close();

      // at least: a calibration off its line makes the joiner ask for another
      assertThat(joiner.counts().calibrations()).as(joiner.counts().summary()).isGreaterThanOrEqualTo(before + LAST_EVENTS);
      assertThat(joiner.readers().inUse()).isEqualTo("spanflight");
    } finally {
      stream.close();
    }
  }
}
