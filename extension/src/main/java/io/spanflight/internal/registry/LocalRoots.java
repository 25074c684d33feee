package io.spanflight.internal.registry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers, for every live span, its local root (the first span of the trace in this process)
 * and the id the registry interned it under ({@link LiveSpan}): context attributes such as {@code
 * http.route} are read from the local root, and in the Grafana/Pyroscope mode samples link to it
 * and it is marked with {@code pyroscope.profile.id} = its span id, which Grafana's "profiles for
 * this span" looks for. A span processor of the agent's SDK, the only one Spanflight adds; entries
 * leave when their span ends, and the registry is told at once (see {@link
 * ContextRegistry#spanEnded(LiveSpan)}). Spans that are not recorded (not sampled) never reach span
 * processors: they have no entry here, and the registry interns them in its own key map.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class LocalRoots implements SpanProcessor {
  public static final String PROFILE_ID_ATTRIBUTE = "pyroscope.profile.id";

  private final ConcurrentHashMap<SpanContext, LiveSpan> live = new ConcurrentHashMap<>();
  private volatile boolean markProfileId;
  private volatile ContextRegistry registry;

  /** Tells {@code registry} when a span ends, from now on (null: stops). */
  public void connect(ContextRegistry registry) {
    this.registry = registry;
  }

  /** Marks local roots with {@code pyroscope.profile.id} from now on (the Grafana mode). */
  public void markProfileIds() {
    markProfileId = true;
  }

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {
    SpanContext self = span.getSpanContext();
    SpanContext parent = Span.fromContext(parentContext).getSpanContext();
    LiveSpan parentSpan = parent.isValid() && !parent.isRemote() ? live.get(parent) : null;
    LocalRoot root = parentSpan != null ? parentSpan.root() : null;
    boolean isLocalRoot = root == null;
    if (isLocalRoot) {
      // no local parent (or its start was not seen): this span is a local root
      root = new LocalRoot(span);
      if (markProfileId) {
        span.setAttribute(PROFILE_ID_ATTRIBUTE, self.getSpanId());
      }
    }
    live.put(self, new LiveSpan(root, isLocalRoot));
  }

  @Override
  public boolean isStartRequired() {
    return true;
  }

  /** On the application's thread: one map removal, the registry told, nothing thrown. */
  @Override
  public void onEnd(ReadableSpan span) {
    LiveSpan ended = live.remove(span.getSpanContext());
    ContextRegistry target = registry;
    if (ended == null || target == null) {
      return;
    }
    try {
      target.spanEnded(ended);
    } catch (RuntimeException e) {
      // Never into the application: the record lets its key go at the registry's next prune instead.
    }
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }

  /** The local root of a live span, or the span itself when it is unknown. */
  public SpanContext localRootOf(SpanContext span) {
    LiveSpan entry = live.get(span);
    return entry != null ? entry.root().context() : span;
  }

  /** The local root of a live span, or null when its start was not seen. */
  public LocalRoot localRoot(SpanContext span) {
    LiveSpan entry = live.get(span);
    return entry != null ? entry.root() : null;
  }

  /** The entry of a span between its start and its end, or null. */
  LiveSpan live(SpanContext span) {
    return live.get(span);
  }

  /** Spans currently tracked. */
  public int size() {
    return live.size();
  }

  @Override
  public CompletableResultCode shutdown() {
    live.clear();
    return CompletableResultCode.ofSuccess();
  }
}
