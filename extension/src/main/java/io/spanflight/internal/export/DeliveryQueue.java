package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.spanflight.internal.logging.ThrottledLogger;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
  private final int capacity;
  private final Backoff backoff;
  private final long attemptTimeoutNanos;
  private final long shutdownTimeoutNanos;
  private final Thread worker;
  private final CompletableResultCode terminated = new CompletableResultCode();
  private final ThrottledLogger failureLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private final ThrottledLogger dropLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);
  private final ThrottledLogger partialLog = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Everything below is guarded by lock.
  private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
  private Pending inFlight;
  private int consecutiveFailures;
  private long nextAttemptNanos = System.nanoTime();
  private boolean closing;
  private long closeDeadlineNanos;
  private long produced;
  private long delivered;
  private long droppedQueueFull;
  private long droppedRefused;
  private long droppedAtShutdown;
  private long retries;
  private long rejectedProfiles;
  private int maxPending;

  DeliveryQueue(
      ProfileTransport transport,
      int capacity,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration attemptTimeout,
      Duration shutdownTimeout) {
    this.transport = transport;
    this.capacity = capacity;
    this.backoff = new Backoff(initialBackoff.toNanos(), maxBackoff.toNanos());
    this.attemptTimeoutNanos = attemptTimeout.toNanos();
    this.shutdownTimeoutNanos = shutdownTimeout.toNanos();
    this.worker = new Thread(this::deliverUntilClosed, "spanflight-otlp-delivery");
    this.worker.setDaemon(true);
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
    Pending added = new Pending(request);
    Pending dropped = null;
    String reason = null;
    lock.lock();
    try {
      produced++;
      if (closing) {
        dropped = added;
        droppedAtShutdown++;
        reason = "exporter already shut down";
      } else {
        if (pendingCount() >= capacity) {
          dropped = waiting.pollFirst(); // the oldest waiting one makes room
          if (dropped == null) {
            dropped = added; // capacity 1 and that one is in flight
          }
          droppedQueueFull++;
          reason = "queue full, " + capacity + " requests pending";
        }
        if (dropped != added) {
          waiting.addLast(added);
          maxPending = Math.max(maxPending, pendingCount());
          changed.signalAll();
        }
      }
    } finally {
      lock.unlock();
    }
    if (dropped != null) {
      dropped.result.fail();
      dropLog.log(Level.WARNING, "Spanflight dropped a profiles request (" + reason + "); since start: " + stats(), null);
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
      return new DeliveryStats(
          produced,
          delivered,
          droppedQueueFull,
          droppedRefused,
          droppedAtShutdown,
          retries,
          rejectedProfiles,
          pendingCount(),
          maxPending);
    } finally {
      lock.unlock();
    }
  }

  private int pendingCount() {
    return waiting.size() + (inFlight != null ? 1 : 0);
  }

  private void deliverUntilClosed() {
    try {
      Pending next;
      while ((next = takeNext()) != null) {
        Attempt attempt = new Attempt();
        transport.send(next.bytes, attempt::complete);
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
  private Pending takeNext() throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        long now = System.nanoTime();
        if (closing && (waiting.isEmpty() || now - closeDeadlineNanos >= 0)) {
          return null;
        }
        if (waiting.isEmpty()) {
          changed.await();
          continue;
        }
        long wait = nextAttemptNanos - now;
        if (closing) {
          wait = Math.min(wait, closeDeadlineNanos - now);
        }
        if (wait > 0) {
          changed.awaitNanos(wait);
          continue;
        }
        Pending head = waiting.pollFirst();
        inFlight = head;
        if (head.attempts++ > 0) {
          retries++;
        }
        return head;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits for the transport's answer, at most the attempt timeout (or until the close deadline). */
  private SendOutcome awaitOutcome(Attempt attempt) throws InterruptedException {
    long deadline = System.nanoTime() + attemptTimeoutNanos;
    lock.lock();
    try {
      while (attempt.outcome == null) {
        long limit = closing && closeDeadlineNanos - deadline < 0 ? closeDeadlineNanos : deadline;
        long wait = limit - System.nanoTime();
        if (wait <= 0) {
          attempt.outcome =
              SendOutcome.retryable("no answer within " + millis(limit == deadline ? attemptTimeoutNanos : shutdownTimeoutNanos));
          break;
        }
        changed.awaitNanos(wait);
      }
      return attempt.outcome;
    } finally {
      lock.unlock();
    }
  }

  private void settle(Pending request, SendOutcome outcome) {
    String problem = null;
    boolean recovered = false;
    lock.lock();
    try {
      inFlight = null;
      switch (outcome.kind()) {
        case DELIVERED:
          delivered++;
          rejectedProfiles += outcome.rejectedProfiles();
          recovered = consecutiveFailures > 0;
          consecutiveFailures = 0;
          break;
        case RETRYABLE:
          consecutiveFailures++;
          long delay = backoff.delayNanos(consecutiveFailures);
          nextAttemptNanos = System.nanoTime() + delay;
          waiting.addFirst(request);
          problem = outcome.description() + "; retrying in " + millis(delay) + " (" + pendingCount() + " pending)";
          break;
        default:
          droppedRefused++;
          consecutiveFailures = 0;
          problem = outcome.description() + "; request dropped (not retryable)";
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    switch (outcome.kind()) {
      case DELIVERED:
        request.result.succeed();
        logDelivered(outcome, recovered);
        break;
      case RETRYABLE:
        failureLog.log(Level.WARNING, "Spanflight could not deliver profiles to " + destination() + ": " + problem, null);
        break;
      default:
        request.result.fail();
        dropLog.log(Level.WARNING, "Spanflight profiles export to " + destination() + " failed: " + problem, null);
    }
  }

  private void logDelivered(SendOutcome outcome, boolean recovered) {
    if (outcome.rejectedProfiles() > 0 || !outcome.description().isEmpty()) {
      partialLog.log(
          Level.WARNING,
          "Spanflight profiles export to " + destination() + ": partial success, the collector rejected "
              + outcome.rejectedProfiles() + " profiles"
              + (outcome.description().isEmpty() ? "" : ": " + outcome.description()),
          null);
    }
    if (recovered) {
      logger.info("Spanflight profiles export to " + destination() + " delivers again; since start: " + stats());
    }
  }

  private void dropWhatIsLeft() {
    List<Pending> left = new ArrayList<>();
    lock.lock();
    try {
      closing = true;
      left.addAll(waiting);
      waiting.clear();
      droppedAtShutdown += left.size();
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

  /** One request and its result; attempts counts the sends started. */
  private static final class Pending {
    final byte[] bytes;
    final CompletableResultCode result = new CompletableResultCode();
    int attempts;

    Pending(byte[] bytes) {
      this.bytes = bytes;
    }
  }

  /** One send: the first outcome wins, a late one (after the attempt timed out) is ignored. */
  private final class Attempt {
    SendOutcome outcome; // guarded by lock

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
  }
}
