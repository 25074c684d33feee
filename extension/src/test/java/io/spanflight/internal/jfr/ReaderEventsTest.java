package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.spanflight.internal.config.SpanflightConfig;
import io.spanflight.internal.jfr.clock.CalibrationEvent;
import io.spanflight.internal.jfr.join.DroppedEvents;
import io.spanflight.internal.jfr.join.PlainJoiners;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.threads.OwnThreads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongPredicate;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What our reader hands the join of a threshold source's events: each event's duration, which
 * both weighs the sample and decides whether it is ours (at or above our threshold) or there only
 * because a denser recording asked for it.
 */
class ReaderEventsTest {
  private static final long LONG_PARK_NANOS = Duration.ofMillis(40).toNanos();

  @TempDir Path dir;

  @Test
  void parksAtOrAboveOurThresholdBecomeSamplesAndShorterOnesAreCountedBelowIt() throws Exception {
    Path file = dir.resolve("parks.jfr");
    recordParks(file, () -> {
      parkLong(3); // above the default park threshold, 20 ms
      for (int i = 0; i < 5; i++) {
        LockSupport.parkNanos(1_000_000L);
      }
    });

    SampleJoiner joiner = read(file, OwnThreads::contains);

    assertThat(joiner.counts().belowThreshold()).as("the 1 ms parks").isGreaterThanOrEqualTo(5);
    assertThat(joiner.counts().samples()).as("the 40 ms parks").isGreaterThanOrEqualTo(3);
    assertThat(joiner.counts().dropped()).isZero();
  }

  @Test
  void waitsOfSpanflightsOwnThreadsAreLeftOutAndCounted() throws Exception {
    Path file = dir.resolve("own-parks.jfr");
    Thread own = new Thread(() -> parkLong(4), "own");
    recordParks(file, () -> {
      own.start();
      parkLong(3);
      try {
        own.join();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    SampleJoiner withOwn = read(file, id -> id == own.getId());
    SampleJoiner withoutOwn = read(file, id -> false);

    assertThat(withOwn.counts().ownThreadWaits()).as("the own thread's 40 ms parks").isEqualTo(4);
    assertThat(withoutOwn.counts().ownThreadWaits()).isZero();
    assertThat(withOwn.counts().samples()).as("everything else is joined").isEqualTo(withoutOwn.counts().samples() - 4);
    assertThat(withoutOwn.counts().samples()).as("this thread's parks too").isGreaterThanOrEqualTo(7);
    assertThat(withOwn.counts().summary()).contains("own-thread-waits=4");
  }

  @Test
  void eventsWithoutAStackAreDroppedAndCountedAsSuch() throws Exception {
    Path file = dir.resolve("stackless-parks.jfr");
    recordParks(file, false, () -> parkLong(3));

    SampleJoiner joiner = read(file, OwnThreads::contains);

    assertThat(joiner.counts().samples()).isZero();
    assertThat(joiner.counts().dropped(DroppedEvents.Reason.NO_STACK)).as("the 40 ms parks").isGreaterThanOrEqualTo(3);
    assertThat(joiner.counts().dropped()).isEqualTo(joiner.counts().dropped(DroppedEvents.Reason.NO_STACK));
    assertThat(joiner.counts().summary()).contains("dropped=" + joiner.counts().dropped() + " (no stack " + joiner.counts().dropped() + ")");
  }

  /** Records every park (threshold 0, with stacks) that {@code parks} makes, between calibrations, into {@code file}. */
  private static void recordParks(Path file, Runnable parks) throws Exception {
    recordParks(file, true, parks);
  }

  private static void recordParks(Path file, boolean withStacks, Runnable parks) throws Exception {
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).with("stackTrace", String.valueOf(withStacks));
      recording.enable(CalibrationEvent.class);
      recording.start();
      calibrate();
      parks.run();
      calibrate();
      recording.stop();
      recording.dump(file);
    }
  }

  private static void parkLong(int times) {
    for (int i = 0; i < times; i++) {
      LockSupport.parkNanos(LONG_PARK_NANOS);
    }
  }

  private static SampleJoiner read(Path file, LongPredicate ownThread) throws Exception {
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(Map.of()));
    List<JfrSource> sources = JfrSources.of(config.sources(), JfrSources.availableEventTypes());
    ProfileCollector collector = new ProfileCollector();
    SampleJoiner joiner = PlainJoiners.into(collector, ownThread);
    new ReaderEvents(sources, joiner, new MethodTimingDeltas(collector), new EffectiveSettings(sources))
        .reader().read(file);
    assertThat(collector.takeInterval().sampleCount()).isEqualTo((int) joiner.counts().samples());
    return joiner;
  }

  /** Enough calibration points for the clock to map ticks. */
  private static void calibrate() {
    for (int i = 0; i < 6; i++) {
      CalibrationEvent.commitNow();
      LockSupport.parkNanos(1_000L);
    }
  }
}
