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

  /** A queue of {@code capacity} whose one request is in flight. */
  private static PendingRequests withOneInFlight(int capacity) {
    PendingRequests pending = new PendingRequests(capacity);
    pending.add(request());
    pending.startHead();
    return pending;
  }

  @Test
  void theRequestInFlightCountsButIsNeverDroppedToMakeRoom() {
    PendingRequests pending = withOneInFlight(2);
    QueuedRequest waiting = request();
    pending.add(waiting);

    assertThat(pending.add(request())).isSameAs(waiting);
    assertThat(pending.size()).isEqualTo(2);
  }

  @Test
  void withCapacityOneAndThatOneInFlightTheNewcomerIsDropped() {
    PendingRequests pending = withOneInFlight(1);
    QueuedRequest newcomer = request();

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
