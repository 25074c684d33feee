package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.ReadableSpan;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A local-root span as the records of its trace's spans see it: the span while it runs, its
 * configured attributes once it has ended. One small object per local root, shared by the records
 * of all its spans, so that when the root ends its record lets the span go for all of them: a
 * child's record used to hold the root span itself until the next prune, up to a second after the
 * request, through young collections that copied the span and everything it holds. Records
 * let it go in turn once the root has ended ({@link ContextRecord#releaseEndedSource}).
 *
 * <p>One {@link ContextAttributes} per process reads it (Spanflight starts once), so the attributes
 * it keeps are those of the configured keys.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class LocalRoot {
  private static final AtomicReferenceFieldUpdater<LocalRoot, Object> STATE =
      AtomicReferenceFieldUpdater.newUpdater(LocalRoot.class, Object.class, "state");

  private final SpanContext context;
  /**
   * The trace id's two halves, parsed once here for every span of the trace in this process: a
   * record of one of them takes them from here instead of parsing the same 32 hex digits again.
   */
  private final long traceIdHigh;
  private final long traceIdLow;
  /** The span ({@link ReadableSpan}) until it has ended and been read, then its pairs ({@code String[]}). */
  private volatile Object state;
  /** The last packing of its attributes for the record (see {@link #packing}), or null. */
  private volatile ContextAttributes.Packed packed;

  public LocalRoot(ReadableSpan span) {
    this.context = span.getSpanContext();
    this.traceIdHigh = SpanLink.parseHex(context.getTraceId(), 0);
    this.traceIdLow = SpanLink.parseHex(context.getTraceId(), 16);
    this.state = span;
  }

  /**
   * Whether {@code traceId} is this root's trace id string itself (the SDK hands a child its
   * parent's string): then {@link #traceIdHigh()} and {@link #traceIdLow()} are its halves.
   */
  boolean sharesTraceId(String traceId) {
    return context.getTraceId() == traceId;
  }

  long traceIdHigh() {
    return traceIdHigh;
  }

  long traceIdLow() {
    return traceIdLow;
  }

  /** The root span's context (the Grafana mode links samples to it). */
  public SpanContext context() {
    return context;
  }

  /** The running span, or null once it has ended and been let go. */
  ReadableSpan span() {
    return state instanceof ReadableSpan span ? span : null;
  }

  /**
   * The configured attributes: read from the span while it runs, kept once it has ended. The
   * switch from span to pairs is one compare-and-set from that span, so a late reader never
   * replaces the kept pairs.
   */
  String[] pairs(ContextAttributes attributes) {
    Object now = state;
    if (now instanceof String[] kept) {
      return kept;
    }
    ReadableSpan span = (ReadableSpan) now;
    boolean hasEnded = span.hasEnded(); // read before: attributes are final after the end
    String[] pairs = attributes.read(span);
    if (hasEnded) {
      pairs = attributes.shared(pairs);
      STATE.compareAndSet(this, now, pairs);
    }
    return pairs;
  }

  /**
   * Its attributes now, packed for the OTEP-4947 record: the last packing while the values are
   * the same (read again, compared, nothing allocated), else a new one, kept for the next record.
   * Most spans of a request start after its route is known: they all share the root's one packing.
   */
  ContextAttributes.Packed packing(ContextAttributes attributes) {
    ContextAttributes.Packed last = packed;
    if (last != null && attributes.made(last)) {
      Object now = state;
      boolean current = now instanceof String[] kept
          ? kept == last.pairs() || java.util.Arrays.equals(kept, last.pairs())
          : attributes.stillReads((ReadableSpan) now, last.pairs());
      if (current) {
        return last;
      }
    }
    ContextAttributes.Packed made = attributes.packing(pairs(attributes));
    packed = made;
    return made;
  }

  /** Whether the root span has ended and its attributes are kept (the span let go). */
  boolean hasEnded() {
    return state instanceof String[];
  }

  /** Keeps the attributes and lets the span go, if it has ended. */
  void releaseIfEnded(ContextAttributes attributes) {
    if (state instanceof ReadableSpan span && span.hasEnded()) {
      pairs(attributes);
    }
  }
}
