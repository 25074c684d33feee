package io.spanflight.internal.instrumentation;

import java.lang.instrument.Instrumentation;

/**
 * The OpenTelemetry javaagent's {@link Instrumentation}, which an extension may use: found by name
 * in the boot class loader, where the agent keeps it ({@code InstrumentationHolder}).
 *
 * <p>Not API: internal to Spanflight.
 */
public final class AgentInstrumentation {
  private static final String HOLDER = "io.opentelemetry.javaagent.bootstrap.InstrumentationHolder";

  private AgentInstrumentation() {}

  /** The agent's instrumentation, or null when the agent did not keep one. */
  public static Instrumentation get() throws ReflectiveOperationException {
    Class<?> holder = Class.forName(HOLDER, true, null);
    return (Instrumentation) holder.getMethod("getInstrumentation").invoke(null);
  }
}
