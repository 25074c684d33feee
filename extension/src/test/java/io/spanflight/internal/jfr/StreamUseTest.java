package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import java.time.Duration;
import java.util.Map;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The diagnostic mode {@code jfr-only} is only a floor, and the mode {@code reader-only} only
 * comparable with {@code stream-only}, if their recordings (plain ones, or the JDK stream's of
 * {@code stream-only}) enable exactly what Spanflight's stream enables: same events, same settings.
 */
class StreamUseTest {
  private final ScriptedBridge bridge = new ScriptedBridge();

  @ParameterizedTest
  @EnumSource(value = StreamUse.class, names = {"RECORD_ONLY", "OWN_READER", "DELIVER_ONLY"})
  void theModesRecordingRecordsExactlyWhatTheStreamRecords(StreamUse mode) throws Exception {
    Map<String, String> joined = settingsOfOurRecording(StreamUse.JOIN);
    Map<String, String> plain = settingsOfOurRecording(mode);

    assertThat(joined).hasSizeGreaterThan(10);
    assertThat(plain).isEqualTo(joined);
  }

  private Map<String, String> settingsOfOurRecording(StreamUse use) throws Exception {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of()));
    Timelines timelines = new Timelines(bridge);
    SampleJoiner joiner = new SampleJoiner(
        new JfrClock(), timelines, new ContextRegistry(bridge), new ProfileCollector(), SampleFilters.NONE);
    try (JfrSampleStream stream =
        new JfrSampleStream(config.sources(), joiner, new ProfileCollector(), Duration.ofSeconds(30))) {
      stream.use(use);
      stream.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < deadline) {
        for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
          if (recording.getState() == RecordingState.RUNNING && OurRecording.isOurs(recording)) {
            return Map.copyOf(recording.getSettings());
          }
        }
        Thread.onSpinWait();
      }
    }
    throw new AssertionError("no recording of ours started within 20 s (" + use + ")");
  }
}
