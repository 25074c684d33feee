package io.spanflight.internal.selfmetrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.spanflight.internal.CollectingReader;
import io.spanflight.internal.TestBridge;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.export.DeliveryQueue;
import io.spanflight.internal.export.FileExporters;
import io.spanflight.internal.export.FileProfileExporter;
import io.spanflight.internal.export.PartialSuccess;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.export.ProfileTransport;
import io.spanflight.internal.export.SendOutcome;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.clock.JfrClock;
import io.spanflight.internal.jfr.join.SampleJoiner;
import io.spanflight.internal.jfr.join.UnknownJoins;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.SmallRegistries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delivery counters that the self-metrics report add up over every run: switching off and on
 * (a new exporter each time) never makes them go down, and while off the last run's counts stay.
 * The registry's, the join's and the file exporter's failure counts reach the meter.
 */
class SelfMetricsTest {
  private final AtomicReference<ProfileExporter> current = new AtomicReference<>(ProfileExporter.NONE);

  @TempDir Path dir;

  @Test
  void deliveryCountsNeverGoDownAcrossRuns() throws Exception {
    SelfMetrics metrics = metrics();
    assertThat(metrics.deliveryCounts()).as("no OTLP exporter yet").isNull();

    DeliveryQueue first = queueThatDelivers();
    current.set(first);
    deliver(first, 3);
    assertThat(metrics.deliveryCounts()).containsExactly(3, 0, 0, 0);

    current.set(ProfileExporter.NONE); // switched off: the last run's counts stay
    assertThat(metrics.deliveryCounts()).containsExactly(3, 0, 0, 0);

    DeliveryQueue second = queueThatDelivers();
    current.set(second); // switched on again
    assertThat(metrics.deliveryCounts()).containsExactly(3, 0, 0, 0);
    deliver(second, 2);
    assertThat(metrics.deliveryCounts()).containsExactly(5, 0, 0, 0);
  }

  @Test
  void exhaustedContextsUnknownReasonsAndRefusedFilesAreExported() throws Exception {
    TestBridge bridge = new TestBridge();
    Timelines timelines = new Timelines(bridge, 1000);
    ContextRegistry registry = SmallRegistries.withSlots(bridge, 2);
    SampleJoiner joiner = new SampleJoiner(
        new JfrClock(), timelines, registry, new ProfileCollector(), SampleFilters.NONE);
    SelfMetrics metrics = new SelfMetrics(joiner, timelines, registry, current::get, new io.spanflight.internal.jfr.BlindSources(joiner));
    CollectingReader reader = new CollectingReader();
    try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader).build()) {
      metrics.register(provider.get("io.spanflight"));
      assertThat(reader.point("spanflight.export.files_refused", Attributes.empty())).as("no file exporter yet").isNull();

      int first = registry.idOf(span(1));
      registry.idOf(span(2));
      assertThat(registry.idOf(span(3))).as("the third context, with two slots").isZero();
      assertThat(UnknownJoins.atUntrustedTick(joiner)).isEqualTo(Timelines.UNKNOWN);
      assertThat(UnknownJoins.atUntrustedTick(joiner)).isEqualTo(Timelines.UNKNOWN);
      assertThat(UnknownJoins.resolves(joiner, first + (1 << 22))).as("a later generation of a slot").isFalse();
      current.set(exporterWithOneRefusedFile(Files.createDirectory(dir.resolve("run1"))));

      assertThat(reader.value("spanflight.registry.exhausted", Attributes.empty())).isEqualTo(1.0);
      assertThat(reader.value("spanflight.samples.unknown", reason("clock"))).isEqualTo(2.0);
      assertThat(reader.value("spanflight.samples.unknown", reason("stale_id"))).isEqualTo(1.0);
      assertThat(reader.value("spanflight.export.files_refused", Attributes.empty())).isEqualTo(1.0);

      current.set(ProfileExporter.NONE); // switched off, then on with a new exporter
      current.set(FileExporters.withClock(Files.createDirectory(dir.resolve("run2")), () -> 2000L));
      assertThat(reader.value("spanflight.export.files_refused", Attributes.empty())).as("never goes down").isEqualTo(1.0);
    }
  }

  private static Attributes reason(String reason) {
    return Attributes.of(AttributeKey.stringKey("reason"), reason);
  }

  private static SpanContext span(int n) {
    return SpanContext.create(
        String.format("%032x", n), String.format("%016x", n), TraceFlags.getSampled(), TraceState.getDefault());
  }

  /** A file exporter that refused its first file: a symbolic link was at that name. */
  private ProfileExporter exporterWithOneRefusedFile(Path out) throws Exception {
    Path victim = Files.write(dir.resolve("victim-" + out.getFileName()), new byte[] {1});
    Files.createSymbolicLink(out.resolve("spanflight-1000-" + ProcessHandle.current().pid() + "-1.binpb"), victim);
    FileProfileExporter exporter = FileExporters.withClock(out, () -> 1000L);
    assertThat(exporter.export(new byte[] {7}).isSuccess()).isFalse();
    assertThat(exporter.export(new byte[] {7}).isSuccess()).isTrue();
    return exporter;
  }

  private SelfMetrics metrics() {
    TestBridge bridge = new TestBridge();
    Timelines timelines = new Timelines(bridge, 1000);
    ContextRegistry registry = new ContextRegistry(bridge);
    SampleJoiner joiner = new SampleJoiner(
        new JfrClock(), timelines, registry, new ProfileCollector(), SampleFilters.NONE);
    return new SelfMetrics(joiner, timelines, registry, current::get, new io.spanflight.internal.jfr.BlindSources(joiner));
  }

  private static DeliveryQueue queueThatDelivers() {
    ProfileTransport transport = new ProfileTransport() {
      @Override
      public String destination() {
        return "test";
      }

      @Override
      public void send(byte[] request, Consumer<SendOutcome> done) {
        done.accept(SendOutcome.delivered(PartialSuccess.parse(null)));
      }

      @Override
      public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
      }
    };
    return DeliveryQueue.builder(transport).setShutdownTimeout(Duration.ofSeconds(1)).build();
  }

  private static void deliver(DeliveryQueue queue, int requests) {
    for (int i = 0; i < requests; i++) {
      assertThat(queue.export(new byte[] {1}).join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
    }
  }
}
