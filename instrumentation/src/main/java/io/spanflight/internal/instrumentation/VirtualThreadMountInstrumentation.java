package io.spanflight.internal.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isPrivate;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.spanflight.internal.instrumentation.bootstrap.VirtualThreadMounts;
import java.lang.instrument.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Hooks {@code java.lang.VirtualThread}'s private {@code mount()} and {@code unmount()} (JDK 21 to
 * 25), which bracket every stretch a virtual thread runs on a carrier inside {@code
 * runContinuation()}. Why: the carrier's OTEP-4947 record is per OS thread and is otherwise written
 * only at context switches, so an external profiler would see the previous virtual thread's span
 * (or the agent's stale carrier context, see {@code CarrierThreads}) while another virtual thread
 * runs there. Right after {@code mount()} and at the start of {@code unmount()}, {@code
 * Thread.currentThread()} is the virtual thread.
 *
 * <p>Matchers are strict (type name, method name, no arguments, private); if a JDK renames them,
 * nothing matches and nothing is hooked ({@link VirtualThreadHooks} checks they exist first).
 *
 * <p>Not API: internal to Spanflight.
 */
final class VirtualThreadMountInstrumentation {
  static final String TYPE = "java.lang.VirtualThread";

  private VirtualThreadMountInstrumentation() {}

  /**
   * Installs the transformer; {@code VirtualThread} must already be loaded, so it is retransformed
   * before this returns. Returns null when both methods were hooked, else what went wrong.
   */
  static String install(Instrumentation instrumentation) {
    Outcome outcome = new Outcome();
    new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
        .with(AgentBuilder.TypeStrategy.Default.DECORATE)
        .with(outcome)
        .ignore(none()) // the default ignores the bootstrap class loader, where VirtualThread is
        .type(named(TYPE))
        .transform(
            (builder, type, loader, module, domain) ->
                builder
                    .visit(Advice.to(MountAdvice.class).on(hooked("mount")))
                    .visit(Advice.to(UnmountAdvice.class).on(hooked("unmount"))))
        .installOn(instrumentation);
    return outcome.failure();
  }

  private static ElementMatcher.Junction<MethodDescription> hooked(String name) {
    return named(name).and(takesArguments(0)).and(isPrivate());
  }

  /** Whether the retransformation of VirtualThread happened, or why not. */
  private static final class Outcome extends AgentBuilder.Listener.Adapter {
    private volatile boolean transformed;
    private volatile Throwable error;

    @Override
    public void onTransformation(
        TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded, DynamicType dynamicType) {
      transformed |= TYPE.equals(type.getName());
    }

    @Override
    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
      if (TYPE.equals(typeName)) {
        error = t;
      }
    }

    String failure() {
      Throwable t = error;
      if (t != null) {
        return "transforming " + TYPE + " failed: " + t;
      }
      return transformed ? null : TYPE + " was not retransformed";
    }
  }

  /** Inlined at the end of {@code VirtualThread.mount()} (JDK 21-25). */
  static final class MountAdvice {
    private MountAdvice() {}

    // Why: from here on the carrier runs the virtual thread; its record must show that thread's
    // context. Thread.currentThread() is already the virtual thread (set by mount()).
    @Advice.OnMethodExit(suppress = Throwable.class)
    static void afterMount() {
      VirtualThreadMounts.mounted();
    }
  }

  /** Inlined at the start of {@code VirtualThread.unmount()} (JDK 21-25). */
  static final class UnmountAdvice {
    private UnmountAdvice() {}

    // Why: the virtual thread leaves the carrier; the carrier's record must show no context.
    // Thread.currentThread() is still the virtual thread (unmount() resets it first thing).
    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void beforeUnmount() {
      VirtualThreadMounts.unmounting();
    }
  }
}
