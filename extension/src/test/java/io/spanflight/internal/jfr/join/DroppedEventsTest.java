package io.spanflight.internal.jfr.join;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DroppedEventsTest {
  @Test
  void noDropsIsAPlainZero() {
    assertThat(new DroppedEvents()).hasToString("0");
  }

  @Test
  void theTotalIsFollowedByEachReasonThatCounted() {
    DroppedEvents dropped = new DroppedEvents();
    dropped.add(DroppedEvents.Reason.NO_STACK);
    dropped.add(DroppedEvents.Reason.NO_STACK);
    dropped.add(DroppedEvents.Reason.STORE_CLEARED);

    assertThat(dropped.total()).isEqualTo(3);
    assertThat(dropped.count(DroppedEvents.Reason.NO_THREAD)).isZero();
    assertThat(dropped).hasToString("3 (no stack 2, store cleared while waiting 1)");
  }
}
