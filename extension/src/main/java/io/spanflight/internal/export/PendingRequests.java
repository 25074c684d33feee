package io.spanflight.internal.export;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of a {@link DeliveryQueue} that have not ended yet: those waiting, oldest first,
 * and the one in flight. Bounded:
 *
 * <ul>
 *   <li>at most {@code capacity} requests, waiting and in flight together;
 *   <li>a newcomer to a full queue makes room by dropping the oldest waiting request, or is
 *       dropped itself when nothing is waiting (capacity 1 and that one is in flight);
 *   <li>a request whose send must be retried goes back to the head, ahead of newer ones.
 * </ul>
 *
 * <p>Not thread-safe: the queue guards it with its lock.
 *
 * <p>Not API: internal to Spanflight.
 */
final class PendingRequests {
  private final int capacity;
  private final ArrayDeque<QueuedRequest> waiting = new ArrayDeque<>();
  private QueuedRequest inFlight;

  PendingRequests(int capacity) {
    this.capacity = capacity;
  }

  int capacity() {
    return capacity;
  }

  /**
   * Appends {@code added}; returns the request dropped to make room ({@code added} itself when
   * nothing waiting could make room), or null when there was room.
   */
  QueuedRequest add(QueuedRequest added) {
    QueuedRequest dropped = null;
    if (size() >= capacity) {
      dropped = waiting.pollFirst(); // the oldest waiting one makes room
      if (dropped == null) {
        dropped = added; // capacity 1 and that one is in flight
      }
    }
    if (dropped != added) {
      waiting.addLast(added);
    }
    return dropped;
  }

  boolean hasWaiting() {
    return !waiting.isEmpty();
  }

  /** Removes the head and makes it the one in flight; a request must be waiting. */
  QueuedRequest startHead() {
    QueuedRequest head = waiting.pollFirst();
    inFlight = head;
    return head;
  }

  /** The request in flight has ended (delivered or dropped). */
  void endInFlight() {
    inFlight = null;
  }

  /** The request in flight goes back to the head, to be sent again before any other. */
  void retryInFlight() {
    waiting.addFirst(inFlight);
    inFlight = null;
  }

  /** Removes every waiting request and returns them, oldest first. */
  List<QueuedRequest> removeWaiting() {
    List<QueuedRequest> removed = new ArrayList<>(waiting);
    waiting.clear();
    return removed;
  }

  /** Requests waiting or in flight. */
  int size() {
    return waiting.size() + (inFlight != null ? 1 : 0);
  }
}
