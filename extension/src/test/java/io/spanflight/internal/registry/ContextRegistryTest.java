package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.bridge.ContextIds;
import io.spanflight.internal.bridge.JavaContextBridge;
import org.junit.jupiter.api.Test;

class ContextRegistryTest {
  private final ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n + 1), String.format("%016x", n + 1), TraceFlags.getSampled(), TraceState.getDefault());
  }

  @Test
  void internsEqualSpanContextsToOneId() {
    int id = registry.idOf(span(1));
    assertThat(id).isPositive();
    assertThat(registry.idOf(span(1))).isEqualTo(id);
    assertThat(registry.idOf(span(2))).isNotEqualTo(id);
    ContextRecord record = registry.resolve(id);
    assertThat(record.spanIdHex()).isEqualTo(span(1).getSpanId());
    assertThat(record.traceId()).hasSize(16);
    assertThat(record.spanId()).hasSize(8);
    assertThat(record.sampled()).isTrue();
    assertThat(registry.resolve(ContextRegistry.NO_CONTEXT)).isNull();
  }

  @Test
  void keepsReferencedOrRecentlyUsedRecordsAndRemovesTheRest() {
    int kept = registry.idOf(span(1));
    int unused = registry.idOf(span(2));

    registry.prune(id -> false); // both used in the current epoch: kept
    registry.prune(id -> false); // used in the previous epoch: kept
    assertThat(registry.size()).isEqualTo(2);

    assertThat(registry.prune(id -> id == kept)).isEqualTo(1);
    assertThat(registry.resolve(kept)).isNotNull();
    assertThat(registry.resolve(unused)).isNull();
  }

  @Test
  void aRemovedIdIsReusedOnlyAfterNoTimelineRefersToIt() {
    int first = registry.idOf(span(1));
    registry.prune(id -> false);
    registry.prune(id -> false);
    registry.prune(id -> false); // removed, quarantined
    assertThat(registry.size()).isZero();

    registry.prune(index -> index == ContextIds.index(first)); // still referenced: stays in quarantine
    assertThat(ContextIds.index(registry.idOf(span(2)))).isNotEqualTo(ContextIds.index(first));

    registry.prune(index -> false); // released
    assertThat(registry.idOf(span(3))).as("its slot, next generation").isEqualTo(ContextIds.next(first));
  }

  @Test
  void aPruneEmptiesTheKeyMapAndASpanUsedAgainIsInternedAnewWithTheSameLink() {
    SpanContext span = span(1);
    int first = registry.idOf(span);
    assertThat(registry.idOf(span)).as("same epoch: found in the key map").isEqualTo(first);

    registry.prune(index -> true);

    int second = registry.idOf(span);
    assertThat(second).as("after a prune the key map no longer holds the span context").isNotEqualTo(first);
    assertThat(registry.resolve(first)).as("still resolvable for its timelines").isNotNull();
    assertThat(registry.resolve(second).link()).isEqualTo(registry.resolve(first).link());
    assertThat(registry.resolve(second).spanIdHex()).isEqualTo(span.getSpanId());
    assertThat(registry.idOf(span)).as("the new record is found until the next prune").isEqualTo(second);
  }

  @Test
  void aRecordPastRetirementAgeThatATimelineStillReferencesStaysResolvableWithItsLink() {
    SpanContext span = span(1);
    int first = registry.idOf(span);
    for (int i = 0; i < 3; i++) {
      registry.prune(index -> true); // a timeline still refers to it, the capture path no longer uses it
    }

    assertThat(registry.resolve(first)).as("still resolvable for its timelines").isNotNull();
    int second = registry.idOf(span);
    assertThat(second).as("interned anew: the old record no longer holds the span context").isNotEqualTo(first);
    assertThat(registry.resolve(second).link()).isEqualTo(registry.resolve(first).link());
    assertThat(registry.resolve(first).spanIdHex()).isEqualTo(span.getSpanId());
  }
}
