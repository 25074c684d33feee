package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PendingRequestsTest {

  private static QueuedRequest request() {
    return new QueuedRequest(new byte[0]);
  }

  @Test
  void aFullQueueDropsItsOldestWaitingRequestToMakeRoom() {
    PendingRequests pending = new PendingRequests(2);
    QueuedRequest first = request();
    QueuedRequest second = request();
    QueuedRequest third = request();

    assertThat(pending.add(first)).isNull();
    assertThat(pending.add(second)).isNull();
    assertThat(pending.add(third)).isSameAs(first);

    assertThat(pending.size()).isEqualTo(2);
    assertThat(pending.startHead()).isSameAs(second);
  }

  @Test
  void theRequestInFlightCountsButIsNeverDroppedToMakeRoom() {
    PendingRequests pending = new PendingRequests(2);
    QueuedRequest inFlight = request();
    QueuedRequest waiting = request();
    QueuedRequest newcomer = request();
    pending.add(inFlight);
    pending.startHead();
    pending.add(waiting);

    assertThat(pending.add(newcomer)).isSameAs(waiting);
    assertThat(pending.size()).isEqualTo(2);
  }

  @Test
  void withCapacityOneAndThatOneInFlightTheNewcomerIsDropped() {
    PendingRequests pending = new PendingRequests(1);
    QueuedRequest inFlight = request();
    QueuedRequest newcomer = request();
    pending.add(inFlight);
    pending.startHead();

    assertThat(pending.add(newcomer)).isSameAs(newcomer);
    assertThat(pending.hasWaiting()).isFalse();
    assertThat(pending.size()).isEqualTo(1);
  }

  @Test
  void aRetriedRequestGoesBackAheadOfNewerOnes() {
    PendingRequests pending = new PendingRequests(3);
    QueuedRequest older = request();
    QueuedRequest newer = request();
    pending.add(older);
    assertThat(pending.startHead()).isSameAs(older);
    pending.add(newer);

    pending.retryInFlight();

    assertThat(pending.size()).isEqualTo(2);
    assertThat(pending.startHead()).isSameAs(older);
    pending.endInFlight();
    assertThat(pending.removeWaiting()).containsExactly(newer);
    assertThat(pending.size()).isZero();
  }
}
