package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.bridge.ContextIds;
import io.spanflight.internal.correlate.Timelines;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/** A context id freed and handed to a new span while the JFR stream is held back. */
class IdReuseTest {
  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final BitSet referenced = new BitSet();

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  private void housekeeping(long watermark) {
    timelines.drain();
    timelines.pruneBehind(watermark, 3_000_000_000L);
    timelines.referencedIds(referenced);
    registry.prune(referenced::get);
  }

  @Test
  void whileTheStreamIsHeldBackAnIdItStillNeedsIsNotReused() {
    long t = System.nanoTime() - 30_000_000_000L;
    int a = registry.idOf(span(1));
    bridge.then(s -> s.switched(1, t, a));
    bridge.then(s -> s.switched(1, t + 1_000_000, 0));
    long watermark = t - 1; // the stream has delivered nothing since just before the switch
    for (int i = 0; i < 10; i++) {
      housekeeping(watermark);
    }
    int b = registry.idOf(span(2));
    assertThat(b).isNotEqualTo(a);
    // the late sample, taken inside span 1
    ContextRecord late = registry.resolve(timelines.contextAt(1, t + 500_000));
    assertThat(late.spanIdHex()).isEqualTo(span(1).getSpanId());
  }

  @Test
  void aSwitchWrittenWithAnIdThatWasReusedMeanwhileNeverJoinsTheNewSpan() {
    int a = registry.idOf(span(1)); // a capture thread got the id of span 1 ...
    for (int i = 0; i < 4; i++) { // ... and was preempted before writing it, for 4 housekeeping ticks
      housekeeping(System.nanoTime());
    }
    int b = registry.idOf(span(2)); // the id was freed and handed to span 2
    long written = System.nanoTime();
    bridge.then(s -> s.switched(1, written, a)); // the preempted thread writes span 1's old id
    int joined = timelines.contextAt(1, written + 1);
    ContextRecord record = joined > 0 ? registry.resolve(joined) : null;
    assertThat(record == null || !record.spanIdHex().equals(span(2).getSpanId()))
        .as("a sample in span 1 joined to span 2 (ids %d, %d)", a, b)
        .isTrue();
  }

  @Test
  void aReusedSlotGetsTheNextGenerationAndTheOldIdResolvesToNothing() {
    int a = registry.idOf(span(1));
    for (int i = 0; i < 4; i++) {
      housekeeping(System.nanoTime());
    }
    int b = registry.idOf(span(2));
    assertThat(ContextIds.index(b)).as("the slot is reused").isEqualTo(ContextIds.index(a));
    assertThat(b).isEqualTo(ContextIds.next(a));
    assertThat(registry.resolve(a)).isNull();
    assertThat(registry.resolve(b).spanIdHex()).isEqualTo(span(2).getSpanId());
    assertThat(bridge.attributesOf(b)).as("the bridge was told the whole id").isNotNull();
  }
}
