package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.spanflight.internal.threads.OwnThreads;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delivers encoded requests to a {@link ProfileTransport}: a bounded queue, one worker thread,
 * retries with backoff, exact counts.
 *
 * <pre>
 *  export(request) ──► waiting (at most capacity requests waiting + in flight; when full, the
 *  never blocks         │      oldest waiting one is dropped to make room)
 *                       ▼
 *  "spanflight-otlp-delivery": takes the head once its backoff has passed, one attempt at a time
 *        DELIVERED ─► delivered (a partial success is logged with the rejected count)
 *        RETRYABLE ─► back to the head; waits Backoff(consecutive failures) before the next attempt
 *        FAILED    ─► dropped (the collector refused this request; retrying would not help)
 *  shutdown(): stops accepting, keeps delivering until the queue is empty or the shutdown timeout
 *              has passed; what is left is dropped, then the transport is shut down.
 * </pre>
 *
 * <p>Every request ends exactly once, as delivered or dropped, and its result code completes
 * then ({@link DeliveryStats}: produced = delivered + dropped + pending). An attempt that gets no
 * answer within the attempt timeout counts as retryable; a late answer to it is ignored. Failures,
 * retries, drops and partial successes are logged through throttled loggers (once a minute each).
 *
 * <p>This class is the engine: one lock, the worker thread, the attempt timeout and shutdown. The
 * rules it applies live apart, each guarded by that lock: {@link PendingRequests} (what waits, what
 * is dropped to make room), {@link RetrySchedule} (when the next send may start) and {@link
 * DeliveryCounters} (what {@link #stats()} reports); {@link DeliveryAttempt} is one send's
 * first-wins outcome, and {@link DeliveryWarnings} words the throttled warnings and the recovery
 * message. It stays above 250 lines because admission, the worker's wait, the attempt's wait and
 * shutdown are one state machine over one lock and condition: split further, each part would need
 * the others' fields.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class DeliveryQueue implements ProfileExporter {
  public static final int DEFAULT_CAPACITY = 6;
  public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);
  public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(15);
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

  private static final Logger logger = Logger.getLogger(DeliveryQueue.class.getName());

  private final ProfileTransport transport;
  private final long attemptTimeoutNanos;
  private final long shutdownTimeoutNanos;
  private final Thread worker;
  private final CompletableResultCode terminated = new CompletableResultCode();
  private final DeliveryWarnings warnings;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Everything below is guarded by lock.
  private final PendingRequests pending;
  private final RetrySchedule schedule;
  private final DeliveryCounters counters = new DeliveryCounters();
  private boolean closing;
  private long closeDeadlineNanos;

  DeliveryQueue(
      ProfileTransport transport,
      int capacity,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration attemptTimeout,
      Duration shutdownTimeout) {
    this.transport = transport;
    this.pending = new PendingRequests(capacity);
    this.schedule = new RetrySchedule(new Backoff(initialBackoff.toNanos(), maxBackoff.toNanos()), System.nanoTime());
    this.attemptTimeoutNanos = attemptTimeout.toNanos();
    this.shutdownTimeoutNanos = shutdownTimeout.toNanos();
    this.warnings = new DeliveryWarnings(logger, transport.destination(), this::stats);
    this.worker = OwnThreads.newDaemon(this::deliverUntilClosed, "spanflight-otlp-delivery");
  }

  public static DeliveryQueueBuilder builder(ProfileTransport transport) {
    return new DeliveryQueueBuilder(transport);
  }

  /** Called by the builder once the queue is fully constructed. */
  DeliveryQueue start() {
    worker.start();
    return this;
  }

  @Override
  public String destination() {
    return transport.destination();
  }

  /**
   * Queues {@code request} and returns at once; the result completes when it is delivered
   * (success) or dropped (failure). Never blocks on the network and never throws.
   */
  @Override
  public CompletableResultCode export(byte[] request) {
    QueuedRequest added = new QueuedRequest(request);
    QueuedRequest dropped;
    String reason = null;
    lock.lock();
    try {
      counters.produced();
      if (closing) {
        dropped = added;
        counters.droppedAtShutdown(1);
        reason = "exporter already shut down";
      } else {
        dropped = pending.add(added);
        if (dropped != null) {
          counters.droppedQueueFull();
          reason = "queue full, " + pending.capacity() + " requests pending";
        }
        if (dropped != added) {
          counters.pendingNow(pending.size());
          changed.signalAll();
        }
      }
    } finally {
      lock.unlock();
    }
    if (dropped != null) {
      dropped.result.fail();
      warnings.dropped(reason);
    }
    return added.result;
  }

  /**
   * Stops accepting requests and delivers what is queued within the shutdown timeout; the result
   * completes when the worker has finished and the transport is shut down.
   */
  @Override
  public CompletableResultCode shutdown() {
    lock.lock();
    try {
      if (!closing) {
        closing = true;
        closeDeadlineNanos = System.nanoTime() + shutdownTimeoutNanos;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
    return terminated;
  }

  /** The counters now, consistent with each other. */
  public DeliveryStats stats() {
    lock.lock();
    try {
      return counters.snapshot(pending.size());
    } finally {
      lock.unlock();
    }
  }

  private void deliverUntilClosed() {
    try {
      QueuedRequest next;
      while ((next = takeNext()) != null) {
        DeliveryAttempt attempt = new DeliveryAttempt(lock, changed);
        try {
          transport.send(next.bytes, attempt::complete);
        } catch (RuntimeException e) { // against the transport's contract: a failed attempt, not a dead queue
          attempt.complete(SendOutcome.retryable("the sender threw " + e.getClass().getName()));
        }
        settle(next, awaitOutcome(attempt));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      logger.log(Level.SEVERE, "Spanflight profiles delivery stopped unexpectedly", e);
    } finally {
      dropWhatIsLeft();
      try {
        transport.shutdown().whenComplete(terminated::succeed);
      } catch (RuntimeException e) {
        logger.log(Level.WARNING, "Spanflight could not shut the OTLP sender down", e);
        terminated.succeed();
      }
    }
  }

  /** The head once its backoff has passed; null when closing and empty or out of time. */
  private QueuedRequest takeNext() throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        long now = System.nanoTime();
        if (closing && (!pending.hasWaiting() || now - closeDeadlineNanos >= 0)) {
          return null;
        }
        if (!pending.hasWaiting()) {
          changed.await();
          continue;
        }
        long wait = schedule.nanosUntilNextAttempt(now);
        if (closing) {
          wait = Math.min(wait, closeDeadlineNanos - now);
        }
        if (wait > 0) {
          changed.awaitNanos(wait);
          continue;
        }
        QueuedRequest head = pending.startHead();
        if (head.startAttempt()) {
          counters.retried();
        }
        return head;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits for the transport's answer, at most the attempt timeout (or until the close deadline). */
  private SendOutcome awaitOutcome(DeliveryAttempt attempt) throws InterruptedException {
    long deadline = System.nanoTime() + attemptTimeoutNanos;
    lock.lock();
    try {
      while (attempt.outcome() == null) {
        long limit = closing && closeDeadlineNanos - deadline < 0 ? closeDeadlineNanos : deadline;
        long wait = limit - System.nanoTime();
        if (wait <= 0) {
          attempt.complete(
              SendOutcome.retryable("no answer within " + millis(limit == deadline ? attemptTimeoutNanos : shutdownTimeoutNanos)));
          break;
        }
        changed.awaitNanos(wait);
      }
      return attempt.outcome();
    } finally {
      lock.unlock();
    }
  }

  private void settle(QueuedRequest request, SendOutcome outcome) {
    String problem = null;
    boolean recovered = false;
    lock.lock();
    try {
      switch (outcome.kind()) {
        case DELIVERED:
          pending.endInFlight();
          counters.delivered(outcome.rejectedProfiles());
          recovered = schedule.delivered();
          break;
        case RETRYABLE:
          pending.retryInFlight();
          long delay = schedule.failed(System.nanoTime());
          problem = outcome.description() + "; retrying in " + millis(delay) + " (" + pending.size() + " pending)";
          break;
        default:
          pending.endInFlight();
          counters.droppedRefused();
          schedule.refused();
          problem = outcome.description() + "; request dropped (not retryable)";
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    request.end(outcome);
    warnings.settled(outcome, problem, recovered);
  }

  private void dropWhatIsLeft() {
    List<QueuedRequest> left;
    lock.lock();
    try {
      closing = true;
      left = pending.removeWaiting();
      counters.droppedAtShutdown(left.size());
    } finally {
      lock.unlock();
    }
    left.forEach(p -> p.result.fail());
    DeliveryStats stats = stats();
    Level level = stats.dropped() > 0 ? Level.WARNING : Level.INFO;
    logger.log(level, "Spanflight profiles export to " + destination() + " stopped; " + stats);
  }

  private static String millis(long nanos) {
    return nanos < 1_000_000_000L
        ? TimeUnit.NANOSECONDS.toMillis(nanos) + " ms"
        : String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
