package io.spanflight.internal.selfmetrics;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.spanflight.internal.capture.WrapperSelfCheck;
import io.spanflight.internal.config.SourceSettings;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.jfr.BlindSources;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.List;
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
 *   <li>{@code spanflight.samples.unknown} (counter), attribute {@code reason}: of the {@code
 *       unknown_timeline} samples, {@code clock} (the clock map was not within the join tolerance
 *       at their time) and {@code stale_id} (their context id was reused since)
 *   <li>{@code spanflight.timeline.lost_switches} (counter): ring entries overwritten before drained
 *   <li>{@code spanflight.export.requests} (counter, OTLP exporter), attribute {@code outcome}:
 *       {@code delivered}, {@code dropped_queue_full}, {@code dropped_refused}, {@code
 *       dropped_shutdown}; {@code spanflight.export.pending} (gauge): requests queued or in flight
 *   <li>{@code spanflight.export.files_refused} (counter, file exporter): files not written because
 *       something not Spanflight's was at their name
 *   <li>{@code spanflight.registry.contexts} (gauge): span contexts currently interned
 *   <li>{@code spanflight.registry.exhausted} (counter): span contexts that got no id because every
 *       slot was in use
 *   <li>{@code spanflight.source.blind} (counter), attribute {@code source} ({@code cpu}, {@code
 *       cputime}, {@code alloc}): times the source went blind ({@link BlindSources})
 *   <li>{@code spanflight.source.lost_samples} (counter), attribute {@code source} ({@code
 *       cputime}): samples JFR reported lost ({@code jdk.CPUTimeSamplesLost})
 *   <li>{@code spanflight.capture.wrapper_inactive} (gauge): 1 when the startup self-check failed
 *   <li>{@code spanflight.jfr.reader_fallbacks} (counter): 1 once Spanflight's own JFR chunk reader
 *       could not read a chunk and the JDK's event stream reads the recording instead
 * </ul>
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SelfMetrics {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");
  private static final AttributeKey<String> REASON = AttributeKey.stringKey("reason");
  private static final AttributeKey<String> SOURCE = AttributeKey.stringKey("source");
  private static final long LOG_PERIOD_NANOS = 60_000_000_000L;

  private final SampleJoiner joiner;
  private final Timelines timelines;
  private final ContextRegistry registry;
  private final ExporterTotals totals;
  private final BlindSources blindSources;
  private boolean registered;
  private long lastLog = System.nanoTime();

  public SelfMetrics(
      SampleJoiner joiner,
      Timelines timelines,
      ContextRegistry registry,
      Supplier<ProfileExporter> exporter,
      BlindSources blindSources) {
    this.joiner = joiner;
    this.blindSources = blindSources;
    this.timelines = timelines;
    this.registry = registry;
    this.totals = new ExporterTotals(exporter);
  }

  /** See {@link ExporterTotals#deliveryCounts()}. */
  long[] deliveryCounts() {
    return totals.deliveryCounts();
  }

  /** Called about once a second from the background thread. */
  public void tick() {
    if (!registered && GlobalOpenTelemetry.isSet()) {
      register(GlobalOpenTelemetry.getMeter("io.spanflight"));
      registered = true;
    }
    long now = System.nanoTime();
    if (now - lastLog >= LOG_PERIOD_NANOS && logger.isLoggable(Level.FINE)) {
      lastLog = now;
      logger.fine("Spanflight since start: " + joiner.counts().summary() + ", lost switches=" + timelines.lostEntries()
          + ", contexts=" + registry.size() + " (none left for " + registry.exhausted() + ")"
          + ", timeline threads=" + timelines.threadCount());
    }
  }

  /** Registers the instruments (once; package-private for tests with their own meter). */
  void register(Meter meter) {
    meter
        .counterBuilder("spanflight.samples")
        .setDescription("JFR samples and events seen by Spanflight, by join outcome")
        .setUnit("{sample}")
        .buildWithCallback(
            m -> {
              long linked = joiner.counts().linked();
              long unknown = joiner.counts().unknownTimeline();
              m.record(linked, Attributes.of(OUTCOME, "linked"));
              m.record(unknown, Attributes.of(OUTCOME, "unknown_timeline"));
              long filtered = joiner.counts().filtered();
              m.record(filtered, Attributes.of(OUTCOME, "filtered"));
              m.record(joiner.counts().samples() - linked - unknown - filtered, Attributes.of(OUTCOME, "unlinked"));
              m.record(joiner.counts().dropped(), Attributes.of(OUTCOME, "dropped"));
            });
    meter
        .counterBuilder("spanflight.samples.unknown")
        .setDescription("Of the unknown_timeline samples: those whose time the JFR clock map could not place"
            + " within the join tolerance (clock), and those whose context id was reused since (stale_id)")
        .setUnit("{sample}")
        .buildWithCallback(
            m -> {
              m.record(joiner.counts().unknownClock(), Attributes.of(REASON, "clock"));
              m.record(joiner.counts().unknownStaleId(), Attributes.of(REASON, "stale_id"));
            });
    meter
        .counterBuilder("spanflight.jfr.reader_fallbacks")
        .setDescription("Times Spanflight's own JFR chunk reader could not read a chunk and the JDK's event stream"
            + " took over, for the life of the JVM (0 or 1)")
        .setUnit("{fallback}")
        .buildWithCallback(m -> m.record(joiner.readers().fallbacks()));
    meter
        .counterBuilder("spanflight.registry.exhausted")
        .setDescription("Span contexts that got no id because every slot was in use (their samples link to no span)")
        .setUnit("{context}")
        .buildWithCallback(m -> m.record(registry.exhausted()));
    meter
        .counterBuilder("spanflight.export.files_refused")
        .setDescription("Files the file exporter did not write because something not Spanflight's was at their name")
        .setUnit("{file}")
        .buildWithCallback(
            m -> {
              long refused = totals.refusedFiles();
              if (refused >= 0) {
                m.record(refused);
              }
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
                m.record(totals.pending());
              }
            });
    meter
        .counterBuilder("spanflight.source.blind")
        .setDescription("Times a sampling source went blind: no event for three export intervals while the"
            + " application's threads used CPU (cpu, cputime) or allocated (alloc)")
        .setUnit("{occurrence}")
        .buildWithCallback(
            m -> {
              for (String source : List.of(SourceSettings.CPU, SourceSettings.CPU_TIME, SourceSettings.ALLOCATION)) {
                m.record(blindSources.blindings(source), Attributes.of(SOURCE, source));
              }
            });
    meter
        .counterBuilder("spanflight.source.lost_samples")
        .setDescription("Samples JFR could not keep and reported lost (cputime: jdk.CPUTimeSamplesLost)")
        .setUnit("{sample}")
        .buildWithCallback(m -> m.record(blindSources.lostSamples(SourceSettings.CPU_TIME),
            Attributes.of(SOURCE, SourceSettings.CPU_TIME)));
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
