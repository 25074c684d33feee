package io.spanflight.internal;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;

/** A metric reader that collects on demand, for asserting on the SDK's real counters. */
public final class CollectingReader implements MetricReader {
  private volatile CollectionRegistration registration;

  public static SdkMeterProvider provider(CollectingReader reader) {
    return SdkMeterProvider.builder().registerMetricReader(reader).build();
  }

  @Override
  public void register(CollectionRegistration registration) {
    this.registration = registration;
  }

  /** The cumulative value of {@code metric} at the point with exactly {@code attributes}; 0 if none. */
  public double value(String metric, Attributes attributes) {
    Double value = point(metric, attributes);
    return value == null ? 0 : value;
  }

  /** As {@link #value}, but null when there is no such point (the metric was never recorded). */
  public Double point(String metric, Attributes attributes) {
    for (MetricData data : registration.collectAllMetrics()) {
      if (!data.getName().equals(metric)) {
        continue;
      }
      for (PointData point : data.getData().getPoints()) {
        if (point.getAttributes().equals(attributes)) {
          return point instanceof LongPointData
              ? (double) ((LongPointData) point).getValue()
              : ((DoublePointData) point).getValue();
        }
      }
    }
    return null;
  }

  @Override
  public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
    return AggregationTemporality.CUMULATIVE;
  }

  @Override
  public CompletableResultCode forceFlush() {
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}
