package io.spanflight.internal.capture;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.spanflight.internal.registry.UserEntries;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where user-defined context ({@code io.spanflight.SpanflightContext}) lives: under one key of the
 * OpenTelemetry context, so the agent propagates it like the span. The public API reaches these
 * two functions through {@link ApiBootstrap}; both never throw.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class UserContext {
  static final ContextKey<UserEntries> KEY = ContextKey.named("spanflight-user-context");
  private static final String[] NONE = new String[0];
  /** Set once the API installed entries: until then the capture path does not look for them. */
  private static volatile boolean used;

  private UserContext() {}

  /** The user entries of {@code context}, or null. */
  public static UserEntries of(Context context) {
    if (!used) {
      return null;
    }
    UserEntries entries = context.get(KEY);
    return entries == null || entries.isEmpty() ? null : entries;
  }

  /** For the API: the current entries as {key, value...}. */
  static final Supplier<String[]> CURRENT =
      () -> {
        UserEntries entries = Context.current().get(KEY);
        return entries == null ? NONE : entries.pairs();
      };

  /** For the API: installs entries (replacing the current ones, keeping the span) until closed. */
  static final Function<String[], AutoCloseable> ATTACH =
      pairs -> {
        used = true;
        return Context.current().with(KEY, new UserEntries(pairs)).makeCurrent();
      };
}
