package io.spanflight.internal.costs;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Real SDK spans with chosen timestamps, sent through {@code exporter}, and a recording exporter. */
final class Spans {
  private final Tracer tracer;

  Spans(SpanExporter exporter) {
    this.tracer = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build().get("test");
  }

  /** A span from {@code start} to {@code end} (epoch nanos), child of {@code parent} unless null. */
  Span start(String name, SpanKind kind, Span parent, long start) {
    var builder = tracer.spanBuilder(name).setSpanKind(kind).setStartTimestamp(start, TimeUnit.NANOSECONDS);
    builder.setParent(parent == null ? Context.root() : Context.root().with(parent));
    return builder.startSpan();
  }

  static void end(Span span, long end) {
    span.end(end, TimeUnit.NANOSECONDS);
  }

  static long id(Span span) {
    return Long.parseUnsignedLong(span.getSpanContext().getSpanId(), 16);
  }

  /** Records what it is asked to export; shutdown and flush are recorded too. */
  static final class Recording implements SpanExporter {
    final List<SpanData> exported = new ArrayList<>();
    final List<String> calls = new ArrayList<>();

    @Override
    public synchronized CompletableResultCode export(Collection<SpanData> spans) {
      exported.addAll(spans);
      calls.add("export " + spans.size());
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public synchronized CompletableResultCode flush() {
      calls.add("flush");
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public synchronized CompletableResultCode shutdown() {
      calls.add("shutdown");
      return CompletableResultCode.ofSuccess();
    }

    synchronized SpanData named(String name) {
      return exported.stream().filter(s -> s.getName().equals(name)).findFirst().orElse(null);
    }
  }
}
