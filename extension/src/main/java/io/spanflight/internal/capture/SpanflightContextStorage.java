package io.spanflight.internal.capture;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The capture hook: wraps the agent's {@link ContextStorage} so that every attach, and every
 * close of the resulting scope, records the thread's new current span in the timeline.
 *
 * <p>The wrapper is registered once per JVM, before the storage is first used (see
 * {@link #install()}); it does nothing but delegate until {@link #start} hands it a recorder.
 * Nothing is ever thrown into the application thread: a failure while recording is counted and
 * logged once.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SpanflightContextStorage implements ContextStorage {
  private static final Logger logger = Logger.getLogger(SpanflightContextStorage.class.getName());

  private static volatile SwitchRecorder recorder;
  /** Whether each scope of a span also begins a JFR {@link SpanScopeEvent} (off by default). */
  private static volatile boolean scopeEvents;
  private static volatile boolean installed;

  /** Set while {@link WrapperSelfCheck} probes; the wrapper marks the probe it sees. */
  static volatile Thread probingThread;

  static volatile boolean probeSeen;

  private static volatile boolean failureLogged;

  private final ContextStorage delegate;

  SpanflightContextStorage(ContextStorage delegate) {
    this.delegate = delegate;
  }

  /**
   * Registers the wrapper. Must run before the context storage is first used: in a static
   * initialiser or in {@code AutoConfigurationCustomizerProvider.customize()}. Later calls are
   * silently ignored by OpenTelemetry; {@link WrapperSelfCheck} detects that.
   */
  public static synchronized void install() {
    if (!installed) {
      ContextStorage.addWrapper(SpanflightContextStorage::new);
      installed = true;
    }
  }

  /** From now on, switches are recorded through {@code newRecorder}. */
  public static void start(SwitchRecorder newRecorder) {
    recorder = newRecorder;
  }

  /** Switches {@link SpanScopeEvent}s for JFR tooling on or off. */
  public static void recordScopeEvents(boolean on) {
    scopeEvents = on;
  }

  /** Stops recording; the wrapper goes back to plain delegation. */
  public static void stop() {
    recorder = null;
  }

  @Override
  public Scope attach(Context toAttach) {
    Scope scope = delegate.attach(toAttach);
    if (probingThread == Thread.currentThread()) {
      probeSeen = true;
    }
    SwitchRecorder r = recorder;
    if (r == null || scope == Scope.noop() || CarrierThreads.isCarrier(Thread.currentThread())) {
      // Not running, or the context was already current: no switch. A virtual-thread carrier's
      // own context is the agent's stale one on JDK 25: see CarrierThreads.
      return scope;
    }
    record(r, toAttach);
    if (scopeEvents) {
      ScopeEventStart event = ScopeEventStart.of(toAttach);
      if (event != null) {
        return new EventScope(new RecordingScope(scope, r), event);
      }
    }
    return new RecordingScope(scope, r);
  }

  @Override
  public Context current() {
    return delegate.current();
  }

  @Override
  public Context root() {
    return delegate.root();
  }

  /** A scope with a JFR {@code SpanScopeEvent} (kept apart, so the plain scope stays small). */
  private static final class EventScope implements Scope {
    private final Scope scope;
    private final ScopeEventStart event;

    EventScope(Scope scope, ScopeEventStart event) {
      this.scope = scope;
      this.event = event;
    }

    @Override
    public void close() {
      event.end();
      scope.close();
    }
  }

  private static void record(SwitchRecorder r, Context context) {
    try {
      r.record(context);
    } catch (RuntimeException | LinkageError e) {
      if (!failureLogged) {
        failureLogged = true;
        logger.log(Level.WARNING, "Spanflight could not record a context switch; continuing", e);
      }
    }
  }

  /** Records the context the thread returns to once the application's scope closes. */
  private final class RecordingScope implements Scope {
    private final Scope scope;
    private final SwitchRecorder r;

    RecordingScope(Scope scope, SwitchRecorder r) {
      this.scope = scope;
      this.r = r;
    }

    @Override
    public void close() {
      scope.close();
      // Whatever the delegate restored (also when scopes were closed out of order).
      record(r, delegate.current());
    }
  }
}
