package io.spanflight.internal.costs;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.common.InstrumentationLibraryInfo;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import java.util.List;

/**
 * A child span made from an {@link InferredEvent}: same trace and resource as its parent, a new
 * span id, the event's start and end placed on the parent's clock, kind INTERNAL, and attributes
 * that say what it was: {@code spanflight.inferred} (the event's sample type, which marks it as
 * inferred by Spanflight), {@code thread.id}, {@code code.function.name} for a traced call and
 * {@code code.stacktrace} (the top frames) where known.
 *
 * <p>Not API: internal to Spanflight.
 */
final class InferredSpanData implements SpanData {
  static final AttributeKey<String> INFERRED = AttributeKey.stringKey("spanflight.inferred");
  static final AttributeKey<Long> THREAD_ID = AttributeKey.longKey("thread.id");
  static final AttributeKey<String> FUNCTION = AttributeKey.stringKey("code.function.name");
  static final AttributeKey<String> STACK = AttributeKey.stringKey("code.stacktrace");
  static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  static final AttributeKey<String> FILE_PATH = AttributeKey.stringKey("file.path");
  static final InstrumentationScopeInfo SCOPE = InstrumentationScopeInfo.builder("io.spanflight.inferred").build();
  private static final IdGenerator IDS = IdGenerator.random();

  private final SpanData parent;
  private final SpanContext parentContext;
  private final SpanContext context;
  private final String name;
  private final long startEpochNanos;
  private final long endEpochNanos;
  private final Attributes attributes;

  /**
   * @param parent the span the join attributed the event to (its trace, flags and resource)
   * @param parentContext the span this one is a child of: {@code parent}'s, or that of a traced
   *     call it ran inside
   * @param toEpoch added to the event's nanoTime to give epoch nanoseconds on the parent's clock
   *     (the parent's start minus its start on the nanoTime clock)
   */
  InferredSpanData(SpanData parent, SpanContext parentContext, InferredEvent event, long toEpoch) {
    this.parent = parent;
    this.parentContext = parentContext;
    this.context = SpanContext.create(
        parentContext.getTraceId(), IDS.generateSpanId(), parentContext.getTraceFlags(), TraceState.getDefault());
    this.name = nameOf(event);
    this.startEpochNanos = event.startNanos() + toEpoch;
    this.endEpochNanos = startEpochNanos + event.durationNanos();
    AttributesBuilder builder = Attributes.builder().put(INFERRED, event.type()).put(THREAD_ID, event.threadId());
    if (event.function() != null) {
      builder.put(FUNCTION, event.function());
    }
    if (event.stack() != null) {
      builder.put(STACK, event.stack());
    }
    putDetail(builder, event);
    this.attributes = builder.build();
  }

  /** The peer of a socket wait ({@code address:port}) or the path of a file wait, where the event has one. */
  private static void putDetail(AttributesBuilder builder, InferredEvent event) {
    String detail = event.detail();
    if (detail == null) {
      return;
    }
    if (event.type().startsWith("file")) {
      builder.put(FILE_PATH, detail);
      return;
    }
    int colon = detail.lastIndexOf(':');
    String address = colon < 0 ? detail : detail.substring(0, colon);
    if (!address.isEmpty()) {
      builder.put(SERVER_ADDRESS, address);
    }
    if (colon >= 0) {
      try {
        builder.put(SERVER_PORT, Long.parseLong(detail.substring(colon + 1)));
      } catch (NumberFormatException e) {
        // no port
      }
    }
  }

  /** A short name a user reads at a glance: {@code wait lock}, {@code wait socket read}, {@code Cart.total}. */
  static String nameOf(InferredEvent event) {
    switch (event.type()) {
      case "lock_contention":
        return "wait lock";
      case "lock_wait":
        return "wait Object.wait";
      case "park":
        return "wait park";
      case "method_trace":
        return simpleName(event.function());
      default: // socket_read, socket_write, file_read, file_write
        return "wait " + event.type().replace('_', ' ');
    }
  }

  /** {@code Cart.total} of {@code com.example.Cart.total}; a nested class keeps its outer's name. */
  private static String simpleName(String function) {
    if (function == null) {
      return "method";
    }
    int method = function.lastIndexOf('.');
    int type = method <= 0 ? -1 : function.lastIndexOf('.', method - 1);
    return function.substring(type + 1);
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public SpanKind getKind() {
    return SpanKind.INTERNAL;
  }

  @Override
  public SpanContext getSpanContext() {
    return context;
  }

  @Override
  public SpanContext getParentSpanContext() {
    return parentContext;
  }

  @Override
  public StatusData getStatus() {
    return StatusData.unset();
  }

  @Override
  public long getStartEpochNanos() {
    return startEpochNanos;
  }

  @Override
  public Attributes getAttributes() {
    return attributes;
  }

  @Override
  public List<EventData> getEvents() {
    return List.of();
  }

  @Override
  public List<LinkData> getLinks() {
    return List.of();
  }

  @Override
  public long getEndEpochNanos() {
    return endEpochNanos;
  }

  @Override
  public boolean hasEnded() {
    return true;
  }

  @Override
  public int getTotalRecordedEvents() {
    return 0;
  }

  @Override
  public int getTotalRecordedLinks() {
    return 0;
  }

  @Override
  public int getTotalAttributeCount() {
    return attributes.size();
  }

  @Override
  @SuppressWarnings("deprecation") // the SDK still asks every SpanData for it
  public InstrumentationLibraryInfo getInstrumentationLibraryInfo() {
    return InstrumentationLibraryInfo.create(SCOPE.getName(), null);
  }

  @Override
  public InstrumentationScopeInfo getInstrumentationScopeInfo() {
    return SCOPE;
  }

  @Override
  public Resource getResource() {
    return parent.getResource();
  }

  @Override
  public String toString() {
    return "InferredSpanData{" + name + " " + context.getSpanId() + " parent " + parentContext.getSpanId() + "}";
  }
}
