package io.spanflight.internal.capture;

import io.opentelemetry.api.trace.SpanContext;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One span scope on one thread, for JFR tooling: its trace and span ids are {@code @Contextual},
 * so JDK 25's {@code jfr print} and JDK Mission Control show the span on every event of that
 * thread inside the scope. Off unless {@code otel.spanflight.scope.events=true}; then recorded for
 * scopes longer than the threshold. Spanflight's own join does not use it. Begun and committed
 * here in capture, where the scope is ({@link ScopeEventStart}); the JFR stream only enables it
 * ({@code jfr.OurEvents}).
 *
 * <p>Not API: internal to Spanflight.
 */
@Name(SpanScopeEvent.NAME)
@Label("Span Scope")
@Category({"Spanflight", "OpenTelemetry"})
@Description("An OpenTelemetry span was current on this thread (recorded by Spanflight)")
@StackTrace(false)
@Enabled(false)
public final class SpanScopeEvent extends Event {
  public static final String NAME = "io.spanflight.SpanScope";

  @Label("Trace Id")
  @ContextualField
  String traceId;

  @Label("Span Id")
  @ContextualField
  String spanId;

  /** Ends the scope's event and commits it when long enough, with the span's ids. */
  public void endAndCommit(SpanContext span) {
    end();
    if (shouldCommit()) {
      traceId = span.getTraceId();
      spanId = span.getSpanId();
      commit();
    }
  }
}
