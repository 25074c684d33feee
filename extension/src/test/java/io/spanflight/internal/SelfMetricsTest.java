package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.spanflight.internal.correlate.Timelines;
import io.spanflight.internal.export.DeliveryQueue;
import io.spanflight.internal.export.PartialSuccess;
import io.spanflight.internal.export.ProfileExporter;
import io.spanflight.internal.export.ProfileTransport;
import io.spanflight.internal.export.SendOutcome;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.jfr.JfrClock;
import io.spanflight.internal.jfr.SampleJoiner;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextAttributes;
import io.spanflight.internal.registry.ContextRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The delivery counters that the self-metrics report add up over every run: switching off and on
 * (a new exporter each time) never makes them go down, and while off the last run's counts stay.
 */
class SelfMetricsTest {
  private final AtomicReference<ProfileExporter> current = new AtomicReference<>(ProfileExporter.NONE);

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

  private SelfMetrics metrics() {
    TestBridge bridge = new TestBridge();
    Timelines timelines = new Timelines(bridge, 1000);
    ContextRegistry registry = new ContextRegistry(bridge, UnaryOperator.identity(), ContextAttributes.NONE);
    SampleJoiner joiner = new SampleJoiner(
        new JfrClock(), timelines, registry, new ProfileCollector(), SampleFilters.NONE);
    return new SelfMetrics(joiner, timelines, registry, current::get);
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
