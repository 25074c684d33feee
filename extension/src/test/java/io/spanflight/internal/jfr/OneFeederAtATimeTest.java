package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.join.PlainJoiners;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import java.time.Duration;
import java.util.Map;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Test;

/**
 * A stream started while an earlier one's thread still feeds the same joiner (switched off and on
 * quickly) waits for it: the joiner and its store are read and written by one thread only.
 */
class OneFeederAtATimeTest {
  @Test
  void aSecondStreamOnTheSameJoinerStartsOnlyOnceTheFirstHasEnded() throws Exception {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of()));
    ProfileCollector collector = new ProfileCollector();
    SampleJoiner joiner = PlainJoiners.into(collector);
    JfrSampleStream first = new JfrSampleStream(config.sources(), joiner, collector, Duration.ofSeconds(30));
    JfrSampleStream second = new JfrSampleStream(config.sources(), joiner, collector, Duration.ofSeconds(30));
    try {
      first.start();
      awaitRunning(1);

      second.start();
      Thread.sleep(1500);
      assertThat(ourRecordingsRunning()).as("the second waits while the first reads").isEqualTo(1);

      first.close();
      awaitRunning(1);
      Thread.sleep(500);
      assertThat(ourRecordingsRunning()).as("only the second's, once the first has ended").isEqualTo(1);
    } finally {
      first.close();
      second.close();
    }
    assertThat(ourRecordingsRunning()).isZero();
  }

  private static void awaitRunning(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (ourRecordingsRunning() != count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(ourRecordingsRunning()).as("recordings of ours running").isEqualTo(count);
  }

  private static int ourRecordingsRunning() {
    int running = 0;
    for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
      if (recording.getState() == RecordingState.RUNNING && OurRecording.isOurs(recording)) {
        running++;
      }
    }
    return running;
  }
}
