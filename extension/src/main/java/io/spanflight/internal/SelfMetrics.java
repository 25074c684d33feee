package io.spanflight.internal;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.spanflight.internal.capture.WrapperSelfCheck;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.export.DeliveryQueue;
import io.spanflight.internal.export.DeliveryStats;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.jfr.SampleJoiner;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Spanflight's own counters as OpenTelemetry metrics, through the agent's meter provider, and as
 * one FINE log line per minute. The instruments are registered once the agent has set the global
 * OpenTelemetry (asking for it earlier would install a no-op one for the whole application).
 *
 * <ul>
 *   <li>{@code spanflight.samples} (counter), attribute {@code outcome}: {@code linked} (joined to
 *       a span), {@code unlinked} (no span active), {@code unknown_timeline} (the thread's switches
 *       were lost for that stretch), {@code filtered} (dropped by a context filter), {@code
 *       dropped} (never joined)
 *   <li>{@code spanflight.timeline.lost_switches} (counter): ring entries overwritten before drained
 *   <li>{@code spanflight.export.requests} (counter, OTLP exporter), attribute {@code outcome}:
 *       {@code delivered}, {@code dropped_queue_full}, {@code dropped_refused}, {@code
 *       dropped_shutdown}; {@code spanflight.export.pending} (gauge): requests queued or in flight
 *   <li>{@code spanflight.registry.contexts} (gauge): span contexts currently interned
 *   <li>{@code spanflight.capture.wrapper_inactive} (gauge): 1 when the startup self-check failed
 * </ul>
 *
 * <p>Not API: internal to Spanflight.
 */
final class SelfMetrics {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");
  private static final long LOG_PERIOD_NANOS = 60_000_000_000L;

  private final SampleJoiner joiner;
  private final Timelines timelines;
  private final ContextRegistry registry;
  private final Supplier<ProfileExporter> exporter;
  private boolean registered;
  /** The OTLP exporter last seen, and the final counts of the runs before it. */
  private DeliveryQueue lastQueue; // guarded by this
  private final long[] endedRuns = new long[4]; // guarded by this
  private long lastLog = System.nanoTime();

  SelfMetrics(
      SampleJoiner joiner, Timelines timelines, ContextRegistry registry, Supplier<ProfileExporter> exporter) {
    this.joiner = joiner;
    this.timelines = timelines;
    this.registry = registry;
    this.exporter = exporter;
  }

  /**
   * The OTLP exporter's delivery counters since start, over every run (switching off and on starts
   * a new exporter; the counters never go down), or null while no run has had an OTLP exporter.
   * Reads the current run without waiting for the engine's lock: the agent's last metric export
   * runs at shutdown while Spanflight's own shutdown holds it.
   */
  synchronized long[] deliveryCounts() {
    ProfileExporter current = exporter.get();
    if (current instanceof DeliveryQueue && current != lastQueue) {
      if (lastQueue != null) {
        add(endedRuns, counts(lastQueue.stats()));
      }
      lastQueue = (DeliveryQueue) current;
    }
    if (lastQueue == null) {
      return null;
    }
    long[] total = counts(lastQueue.stats());
    add(total, endedRuns);
    return total;
  }

  /** delivered, dropped (queue full), dropped (refused), dropped (shutdown). */
  private static long[] counts(DeliveryStats stats) {
    return new long[] {
      stats.delivered(), stats.droppedQueueFull(), stats.droppedRefused(), stats.droppedAtShutdown()
    };
  }

  private static void add(long[] into, long[] values) {
    for (int i = 0; i < into.length; i++) {
      into[i] += values[i];
    }
  }

  /** The current run's pending requests (0 while off or without an OTLP exporter). */
  private long pending() {
    ProfileExporter current = exporter.get();
    return current instanceof DeliveryQueue ? ((DeliveryQueue) current).stats().pending() : 0;
  }

  /** Called about once a second from the background thread. */
  void tick() {
    if (!registered && GlobalOpenTelemetry.isSet()) {
      register(GlobalOpenTelemetry.getMeter("io.spanflight"));
      registered = true;
    }
    long now = System.nanoTime();
    if (now - lastLog >= LOG_PERIOD_NANOS && logger.isLoggable(Level.FINE)) {
      lastLog = now;
      logger.fine("Spanflight since start: " + joiner.summary() + ", lost switches=" + timelines.lostEntries()
          + ", contexts=" + registry.size() + ", timeline threads=" + timelines.threadCount());
    }
  }

  private void register(Meter meter) {
    meter
        .counterBuilder("spanflight.samples")
        .setDescription("JFR samples and events seen by Spanflight, by join outcome")
        .setUnit("{sample}")
        .buildWithCallback(
            m -> {
              long linked = joiner.linked();
              long unknown = joiner.unknownTimeline();
              m.record(linked, Attributes.of(OUTCOME, "linked"));
              m.record(unknown, Attributes.of(OUTCOME, "unknown_timeline"));
              long filtered = joiner.filtered();
              m.record(filtered, Attributes.of(OUTCOME, "filtered"));
              m.record(joiner.samples() - linked - unknown - filtered, Attributes.of(OUTCOME, "unlinked"));
              m.record(joiner.dropped(), Attributes.of(OUTCOME, "dropped"));
            });
    meter
        .counterBuilder("spanflight.timeline.lost_switches")
        .setDescription("Context switches overwritten in a ring before the collector drained them")
        .setUnit("{switch}")
        .buildWithCallback(m -> m.record(timelines.lostEntries()));
    meter
        .counterBuilder("spanflight.export.requests")
        .setDescription("Profiles requests the OTLP exporter finished, by outcome")
        .setUnit("{request}")
        .buildWithCallback(
            m -> {
              long[] counts = deliveryCounts();
              if (counts != null) {
                m.record(counts[0], Attributes.of(OUTCOME, "delivered"));
                m.record(counts[1], Attributes.of(OUTCOME, "dropped_queue_full"));
                m.record(counts[2], Attributes.of(OUTCOME, "dropped_refused"));
                m.record(counts[3], Attributes.of(OUTCOME, "dropped_shutdown"));
              }
            });
    meter
        .gaugeBuilder("spanflight.export.pending")
        .ofLongs()
        .setDescription("Profiles requests queued or in flight")
        .setUnit("{request}")
        .buildWithCallback(
            m -> {
              if (deliveryCounts() != null) {
                m.record(pending());
              }
            });
    meter
        .gaugeBuilder("spanflight.capture.wrapper_inactive")
        .ofLongs()
        .setDescription("1 when the startup self-check found the context-storage wrapper inactive (no span links)")
        .buildWithCallback(m -> m.record(WrapperSelfCheck.failures() > 0 ? 1 : 0));
    meter
        .gaugeBuilder("spanflight.registry.contexts")
        .ofLongs()
        .setDescription("Span contexts currently interned")
        .setUnit("{context}")
        .buildWithCallback(m -> m.record(registry.size()));
  }
}
