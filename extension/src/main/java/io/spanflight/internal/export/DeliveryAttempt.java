package io.spanflight.internal.export;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One send of a {@link DeliveryQueue}: the first outcome wins, a late one (after the attempt timed
 * out) is ignored. Guarded by the queue's lock; completing it wakes the queue's worker.
 *
 * <p>Not API: internal to Spanflight.
 */
final class DeliveryAttempt {
  private final ReentrantLock lock;
  private final Condition changed;
  private SendOutcome outcome; // guarded by lock

  /** {@code lock} and {@code changed}: the queue's lock and the condition its worker waits on. */
  DeliveryAttempt(ReentrantLock lock, Condition changed) {
    this.lock = lock;
    this.changed = changed;
  }

  /** Ends the attempt with {@code result}, unless it has ended already. */
  void complete(SendOutcome result) {
    lock.lock();
    try {
      if (outcome == null) {
        outcome = result;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** How the attempt ended; null while it has not. Call with the lock held. */
  SendOutcome outcome() {
    return outcome;
  }
}
