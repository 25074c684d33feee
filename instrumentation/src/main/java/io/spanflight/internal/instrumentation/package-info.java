/**
 * Bytecode hooks that the {@code ContextStorage} wrapper cannot replace.
 *
 * <p>One so far: {@code java.lang.VirtualThread} mount/unmount (JDK 21 to 25), so that a carrier's
 * OTEP-4947 record shows the mounted virtual thread's context during each mounted stretch and none
 * otherwise. The wrapper cannot see mounts: they are not context switches. {@link
 * io.spanflight.internal.instrumentation.VirtualThreadHooks} installs it with the javaagent's
 * {@code Instrumentation} (and says why not through the {@code InstrumentationModule} SPI); the
 * advice calls the bootstrap holder {@code bootstrap.VirtualThreadMounts}. Proven by {@code
 * VirtualThreadSmokeTest} (JDK 25 with the real agent; JDK 17: nothing loads).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.instrumentation;
