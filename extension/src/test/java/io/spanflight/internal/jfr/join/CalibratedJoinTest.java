package io.spanflight.internal.jfr.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.internal.LogLines;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.jfr.clock.SyntheticClock;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.List;
import java.util.Random;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * Samples join through the fitted clock: on a synthetic 10 MHz clock a sample at a known instant
 * joins the span active there, and calibrations off any line turn samples unknown and say so once.
 */
class CalibratedJoinTest {
  @Test
  void aSampleAtAKnownInstantJoinsTheSpanActiveThereOnATenMegahertzClock() {
    SyntheticClock jvm = new SyntheticClock(100 * (1 - 20e-6));
    ScriptedBridge bridge = new ScriptedBridge();
    Timelines timelines = new Timelines(bridge);
    JfrClock clock = new JfrClock();
    SampleJoiner joiner = joiner(clock, timelines, bridge);
    for (long at : SyntheticClock.calibrationInstants(jvm.originNanos, 8)) {
      long ticks = jvm.ticksAt(at);
      clock.calibrate(ticks, jvm.nanosAt(ticks) + 40);
    }
    long t = jvm.originNanos + 40_000_000_000L; // 6 s after the last calibration
    bridge.then(s -> s.switched(7, t, 11));
    bridge.then(s -> s.switched(7, t + 1_000_000, 12));
    bridge.then(s -> s.switched(7, t + 2_000_000, 0));
    timelines.drain();

    assertThat(joiner.contextAt(7, jvm.ticksAt(t + 500_000))).isEqualTo(11);
    assertThat(joiner.contextAt(7, jvm.ticksAt(t + 1_000_000 + 200_000))).isEqualTo(12);
    assertThat(joiner.contextAt(7, jvm.ticksAt(t + 1_000_000 - 200_000))).isEqualTo(11);
    assertThat(joiner.contextAt(7, jvm.ticksAt(t + 2_500_000))).isZero();
    assertThat(joiner.counts().unknownClock()).isZero();
  }

  @Test
  void calibrationsOffAnyLineTurnSamplesUnknownAndSaySoOnce() {
    SyntheticClock jvm = new SyntheticClock(1.0);
    ScriptedBridge bridge = new ScriptedBridge();
    Timelines timelines = new Timelines(bridge);
    JfrClock clock = new JfrClock();
    SampleJoiner joiner = joiner(clock, timelines, bridge);
    long t0 = jvm.originNanos;
    bridge.then(s -> s.switched(7, t0, 11)); // the thread is in span 11 throughout
    timelines.drain();
    LogLines lines = LogLines.listen(JfrClock.class);
    Random random = new Random(3);
    long wander = 0; // the tick clock wanders off nanoTime by up to a few ms: no line fits it
    int linkedAfterDetection = 0;
    int unknownAfterDetection = 0;
    try {
      long[] instants = SyntheticClock.calibrationInstants(t0, 30);
      for (int i = 0; i < instants.length - 1; i++) {
        wander += (random.nextBoolean() ? 1 : -1) * (500_000 + random.nextInt(1_000_000));
        long ticks = jvm.ticksAt(instants[i]) - wander;
        clock.calibrate(ticks, instants[i] + random.nextInt(1_000));
        boolean detected = clock.outOfTolerance() > 0;
        for (long at = instants[i]; at < instants[i + 1]; at += 250_000_000L) {
          int context = joiner.contextAt(7, jvm.ticksAt(at) - wander);
          if (detected && context == 11) {
            linkedAfterDetection++;
          } else if (detected && context == Timelines.UNKNOWN) {
            unknownAfterDetection++;
          }
        }
      }
    } finally {
      lines.close();
    }
    List<LogRecord> warnings = lines.records();
    assertThat(clock.outOfTolerance()).isPositive();
    assertThat(linkedAfterDetection).as("samples linked once the clock was found off its line").isZero();
    assertThat(unknownAfterDetection).isPositive();
    assertThat(joiner.counts().unknownClock()).isGreaterThanOrEqualTo(unknownAfterDetection);
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0).getMessage()).contains("do not map onto System.nanoTime()");
  }

  private static SampleJoiner joiner(JfrClock clock, Timelines timelines, ScriptedBridge bridge) {
    return new SampleJoiner(
        clock, timelines, new ContextRegistry(bridge), new ProfileCollector(), SampleFilters.NONE);
  }
}
