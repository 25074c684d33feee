package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.PlainJoiners;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.ProfileInterval;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.Recording;
import jdk.jfr.consumer.EventStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JDK's event stream, the reader Spanflight falls back to, hands the join what Spanflight's
 * own reader hands it, event for event: the same recording read by both gives the same counts of
 * joined, dropped, below-threshold and own-thread events and calibrations, and as many samples in
 * the profile.
 */
class JdkStreamEventsTest {
  private static final long LONG_PARK_NANOS = Duration.ofMillis(40).toNanos();

  @TempDir Path dir;

  @Test
  void bothReadersGiveTheJoinTheSameEvents() throws Exception {
    Path file = dir.resolve("mixed.jfr");
    record(file);

    Read ours = readWithOurs(file);
    Read jdks = readWithJdks(file, Long.MIN_VALUE);

    assertThat(ours.joiner.counts().samples()).as("parks, CPU and allocation samples").isGreaterThan(10);
    assertThat(jdks.joiner.counts().samples()).isEqualTo(ours.joiner.counts().samples());
    assertThat(jdks.joiner.counts().dropped()).isEqualTo(ours.joiner.counts().dropped());
    assertThat(jdks.joiner.counts().belowThreshold()).isEqualTo(ours.joiner.counts().belowThreshold());
    assertThat(jdks.joiner.counts().ownThreadWaits()).isEqualTo(ours.joiner.counts().ownThreadWaits());
    assertThat(jdks.joiner.counts().calibrations()).isEqualTo(ours.joiner.counts().calibrations());
    assertThat(jdks.interval.sampleCount()).isEqualTo(ours.interval.sampleCount());
    // (the stores differ in size: ours interns every stack of the chunk's pools, the JDK's stream
    // only those of the events delivered; that the stacks are the same frames is judged end to end
    // by AccuracySmokeTest, whose samples are recognised by the frames of their stacks)
  }

  @Test
  void eventsTheReaderBeforeHandedOutAreSkipped() throws Exception {
    Path file = dir.resolve("skipped.jfr");
    record(file);
    Read ours = readWithOurs(file);

    Read jdks = readWithJdks(file, ours.newestEndTicks);

    assertThat(jdks.joiner.counts().samples()).isZero();
    assertThat(jdks.joiner.counts().calibrations()).isZero();
    assertThat(jdks.skipped).isGreaterThan(10);
  }

  private record Read(SampleJoiner joiner, ProfileInterval interval, long newestEndTicks, long skipped) {}

  private static void record(Path file) throws Exception {
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withStackTrace();
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      recording.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s");
      recording.enable(CalibrationEvent.class);
      recording.start();
      calibrate();
      for (int i = 0; i < 3; i++) {
        LockSupport.parkNanos(LONG_PARK_NANOS);
      }
      for (int i = 0; i < 5; i++) {
        LockSupport.parkNanos(1_000_000L); // below the park source's 20 ms threshold
      }
      burn(Duration.ofMillis(300));
      calibrate();
      recording.stop();
      recording.dump(file);
    }
  }

  private static long sink;

  private static void burn(Duration time) {
    long end = System.nanoTime() + time.toNanos();
    while (System.nanoTime() < end) {
      byte[] garbage = new byte[256];
      sink += garbage.length + Long.numberOfTrailingZeros(System.nanoTime());
    }
  }

  private static void calibrate() {
    for (int i = 0; i < 3; i++) {
      CalibrationEvent.commitNow();
    }
  }

  private static List<JfrSource> sources() {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(
        Map.of("otel.spanflight.alloc.enabled", "true"))); // the defaults and allocation samples
    return JfrSources.of(config.sources(), JfrSources.availableEventTypes());
  }

  private static Read readWithOurs(Path file) throws Exception {
    List<JfrSource> sources = sources();
    ProfileCollector collector = new ProfileCollector();
    SampleJoiner joiner = PlainJoiners.into(collector, id -> false);
    ReaderEvents events = new ReaderEvents(sources, joiner, new MethodTimingDeltas(collector), new EffectiveSettings(sources));
    ChunkReader reader = events.reader();
    reader.read(file);
    return new Read(joiner, collector.takeInterval(), reader.newestEndTicks(), 0);
  }

  private static Read readWithJdks(Path file, long skipUpTo) throws Exception {
    List<JfrSource> sources = sources();
    ProfileCollector collector = new ProfileCollector();
    SampleJoiner joiner = PlainJoiners.into(collector, id -> false);
    JdkStreamEvents events =
        new JdkStreamEvents(sources, joiner, new MethodTimingDeltas(collector), new EffectiveSettings(sources), skipUpTo);
    try (EventStream stream = EventStream.openFile(file)) {
      events.subscribe(stream);
      stream.start();
    }
    return new Read(joiner, collector.takeInterval(), 0, events.skipped());
  }
}
