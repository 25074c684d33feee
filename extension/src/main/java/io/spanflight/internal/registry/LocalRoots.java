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
 * Remembers, for every live span, its local root (the first span of the trace in this process):
 * context attributes such as {@code http.route} are read from it, and in the Grafana/Pyroscope
 * mode samples link to it and it is marked with {@code pyroscope.profile.id} = its span id, which
 * Grafana's "profiles for this span" looks for. A span processor of the agent's SDK; entries leave
 * when their span ends. Spans that are not recorded (not sampled) never reach span processors, so
 * they have no local root here.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class LocalRoots implements SpanProcessor {
  public static final String PROFILE_ID_ATTRIBUTE = "pyroscope.profile.id";

  private final ConcurrentHashMap<SpanContext, LocalRoot> rootOf = new ConcurrentHashMap<>();
  private volatile boolean markProfileId;

  /** Marks local roots with {@code pyroscope.profile.id} from now on (the Grafana mode). */
  public void markProfileIds() {
    markProfileId = true;
  }

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {
    SpanContext self = span.getSpanContext();
    SpanContext parent = Span.fromContext(parentContext).getSpanContext();
    LocalRoot root = parent.isValid() && !parent.isRemote() ? rootOf.get(parent) : null;
    if (root == null) {
      // no local parent (or its start was not seen): this span is a local root
      root = new LocalRoot(span);
      if (markProfileId) {
        span.setAttribute(PROFILE_ID_ATTRIBUTE, self.getSpanId());
      }
    }
    rootOf.put(self, root);
  }

  @Override
  public boolean isStartRequired() {
    return true;
  }

  @Override
  public void onEnd(ReadableSpan span) {
    rootOf.remove(span.getSpanContext());
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }

  /** The local root of a live span, or the span itself when it is unknown. */
  public SpanContext localRootOf(SpanContext span) {
    LocalRoot root = rootOf.get(span);
    return root != null ? root.context() : span;
  }

  /** The local root of a live span, or null when its start was not seen. */
  public LocalRoot localRoot(SpanContext span) {
    return rootOf.get(span);
  }

  /** Spans currently tracked. */
  public int size() {
    return rootOf.size();
  }

  @Override
  public CompletableResultCode shutdown() {
    rootOf.clear();
    return CompletableResultCode.ofSuccess();
  }
}
