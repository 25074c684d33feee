/**
 * Bytecode hooks that the {@code ContextStorage} wrapper cannot replace.
 *
 * <p>Two kinds. First, {@code java.lang.VirtualThread} mount/unmount (JDK 21 to 25), so that a carrier's
 * OTEP-4947 record shows the mounted virtual thread's context during each mounted stretch and none
 * otherwise. The wrapper cannot see mounts: they are not context switches. {@link
 * io.spanflight.internal.instrumentation.VirtualThreadHooks} installs it with the javaagent's
 * {@code Instrumentation} (and says why not through the {@code InstrumentationModule} SPI); the
 * advice calls the bootstrap holder {@code bootstrap.VirtualThreadMounts}. Proven by {@code
 * VirtualThreadSmokeTest} (JDK 25 with the real agent; JDK 17: nothing loads).
 *
 * <p>Second, method timing and tracing on JDK 17 and 21 ({@link
 * io.spanflight.internal.instrumentation.MethodHooks}), where JFR has no {@code jdk.MethodTiming}
 * and {@code jdk.MethodTrace} (JEP 520, JDK 25): advice on the methods of the JDK-syntax filters,
 * calling the bootstrap holder {@code bootstrap.MethodClock}. Proven by {@code
 * MethodSourcesSmokeTest} and {@code MethodFilterChangeSmokeTest} (JDK 17 hooks against JDK 25 JFR).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.instrumentation;
