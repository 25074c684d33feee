package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.bridge.ContextIds;
import io.spanflight.internal.bridge.JavaContextBridge;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A slot's record object serves span after span, never while someone may still read it. */
class RecordReuseTest {
  private final ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  /** Prunes with no timeline referring to anything. */
  private void prune(int times) {
    for (int i = 0; i < times; i++) {
      registry.prune(index -> false);
    }
  }

  @Test
  void theNextSpanOfASlotGetsTheSameRecordObjectDefinedAnew() {
    int first = registry.idOf(span(1));
    ContextRecord record = registry.resolve(first);
    prune(4);

    int second = registry.idOf(span(2));

    assertThat(ContextIds.index(second)).isEqualTo(ContextIds.index(first));
    assertThat(registry.resolve(second)).as("no new object per span").isSameAs(record);
    assertThat(record.spanIdHex()).isEqualTo(span(2).getSpanId());
    assertThat(registry.resolve(first)).as("the old id resolves to nothing").isNull();
  }

  @Test
  void aRecordResolvedInAnOpenWindowDoesNotChangeUntilTheWindowCloses() {
    ReadWindow join = registry.readWindow();
    int first = registry.idOf(span(1));
    join.open();
    ContextRecord held = registry.resolve(first);
    prune(10); // retired at once, but its slot is not handed out while the window is open

    int second = registry.idOf(span(2));

    assertThat(ContextIds.index(second)).as("another slot").isNotEqualTo(ContextIds.index(first));
    assertThat(held.spanIdHex()).as("what the join reads").isEqualTo(span(1).getSpanId());
    join.close();
    prune(2);
    int third = registry.idOf(span(3));
    assertThat(ContextIds.index(third)).as("reused once the window closed").isEqualTo(ContextIds.index(first));
  }

  @Test
  void aWindowOpenedAfterTheRecordWasRetiredDoesNotHoldItsSlotBack() {
    ReadWindow join = registry.readWindow();
    int first = registry.idOf(span(1));
    prune(3); // retired, waiting in quarantine
    join.open();
    assertThat(registry.resolve(first)).as("it cannot be resolved any more").isNull();
    prune(1);

    int second = registry.idOf(span(2));

    assertThat(ContextIds.index(second)).isEqualTo(ContextIds.index(first));
    join.close();
  }

  @Test
  void aRecordFoundForOneContextNeverGivesTheIdItWasDefinedWithForAnother() {
    SpanContext ended = span(1);
    registry.idOf(ended);
    ContextRecord found = registry.resolve(registry.idOf(ended)); // a capture thread found it in the key map ...
    registry.spanEnded(ended); // ... and was preempted while the span ended
    prune(4);
    int other = registry.idOf(span(2)); // and the record was defined for another span
    assertThat(registry.resolve(other)).isSameAs(found);

    assertThat(registry.currentId(found, ended))
        .as("the id of span 2 handed out for span 1")
        .isEqualTo(ContextRegistry.NO_CONTEXT);
  }

  @Test
  void aSpanAskedForAgainAfterItsSlotServedAnotherGetsANewIdNotTheOther() {
    SpanContext ended = span(1);
    int first = registry.idOf(ended);
    assertThat(registry.idOf(ended)).as("found again").isEqualTo(first);
    registry.spanEnded(ended);
    prune(4);
    int other = registry.idOf(span(2)); // the same record object, defined for span 2
    assertThat(ContextIds.index(other)).isEqualTo(ContextIds.index(first));

    int again = registry.idOf(ended);

    assertThat(again).isNotEqualTo(other).isNotEqualTo(first);
    assertThat(registry.resolve(again).spanIdHex()).isEqualTo(ended.getSpanId());
    assertThat(registry.resolve(other).spanIdHex()).isEqualTo(span(2).getSpanId());
  }

  @Test
  void anIdleSlotHoldsNothingOfItsLastSpan() {
    int id = registry.idOf(span(1), new UserEntries(new String[] {"tenant", "a"}));
    ContextRecord record = registry.resolve(id);
    assertThat(record.attributePairs()).containsExactly("tenant", "a");
    prune(4); // unused for two epochs: retired; then no reader: free

    assertThat(record.attributePairs()).as("cleared once its slot is free").isEmpty();
  }

  @Test
  void slotsFreedAfterARecentPeakAllKeepTheirRecord() {
    int burst = 3 * IdRecycler.MAX_IDLE_RECORDS; // a service whose load swings: a peak, then a trough
    ContextRecord first = registry.resolve(registry.idOf(span(1)));
    for (int i = 2; i < burst; i++) {
      registry.idOf(span(i));
    }
    ContextRecord last = registry.resolve(registry.idOf(span(burst)));
    prune(4); // all retired, then freed: slots in the order they were freed, first to last

    ContextRecord firstAgain = registry.resolve(registry.idOf(span(burst + 1)));
    for (int i = 2; i < burst; i++) {
      registry.idOf(span(burst + i));
    }
    ContextRecord lastAgain = registry.resolve(registry.idOf(span(2 * burst)));

    assertThat(firstAgain).isSameAs(first);
    assertThat(lastAgain).as("freed beyond the fixed bound, within the recent peak: the same object").isSameAs(last);
  }

  @Test
  void longAfterABurstOnlyABoundedNumberOfIdleSlotsKeepTheirRecord() {
    int burst = 3 * IdRecycler.MAX_IDLE_RECORDS;
    ContextRecord first = registry.resolve(registry.idOf(span(1)));
    for (int i = 2; i < burst; i++) {
      registry.idOf(span(i));
    }
    ContextRecord last = registry.resolve(registry.idOf(span(burst)));
    prune(4);
    prune(4 * IdRecycler.PEAK_DECAY); // minutes without a span: the peak is forgotten

    ContextRecord firstAgain = registry.resolve(registry.idOf(span(burst + 1)));
    for (int i = 2; i < burst; i++) {
      registry.idOf(span(burst + i));
    }
    ContextRecord lastAgain = registry.resolve(registry.idOf(span(2 * burst)));

    assertThat(firstAgain).as("within the fixed bound: the slot kept its record").isSameAs(first);
    assertThat(lastAgain).as("beyond it, once the peak is forgotten: a new object").isNotSameAs(last);
    assertThat(lastAgain.spanIdHex()).isEqualTo(span(2 * burst).getSpanId());
  }

  @Test
  void aQuieterServiceAfterABurstCyclesThroughTheSlotsThatKeptTheirRecord() {
    int burst = 3 * IdRecycler.MAX_IDLE_RECORDS;
    for (int i = 1; i <= burst; i++) {
      registry.idOf(span(i));
    }
    prune(4);
    prune(4 * IdRecycler.PEAK_DECAY); // the peak forgotten: most free slots are bare now

    Set<ContextRecord> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    int next = burst;
    int wave = IdRecycler.MAX_IDLE_RECORDS / 2;
    for (int round = 0; round < 4; round++) { // waves of half the bound, each freed before the next
      for (int i = 0; i < wave; i++) {
        seen.add(registry.resolve(registry.idOf(span(++next))));
      }
      prune(4);
    }

    assertThat(seen).as("no record object made for the later waves: they reuse the kept ones")
        .hasSizeLessThanOrEqualTo(IdRecycler.MAX_IDLE_RECORDS);
  }

  @Test
  void whileAsManyContextsAreLiveAsAreFreedEveryFreedSlotKeepsItsRecord() {
    int busy = IdRecycler.MAX_IDLE_RECORDS + 100; // a busy service: more spans a second than the bound
    for (int i = 1; i < busy; i++) {
      registry.idOf(span(i));
    }
    ContextRecord lastOfFirstWave = registry.resolve(registry.idOf(span(busy)));
    prune(2);
    for (int i = 1; i <= busy; i++) {
      registry.idOf(span(busy + i)); // the second wave, live while the first one's slots are freed
    }
    prune(2); // the first wave is retired, then freed

    ContextRecord reused = null;
    for (int i = 1; i <= busy; i++) {
      reused = registry.resolve(registry.idOf(span(2 * busy + i)));
    }
    assertThat(reused).as("the slot freed last still had its record: no new object per span").isSameAs(lastOfFirstWave);
  }
}
