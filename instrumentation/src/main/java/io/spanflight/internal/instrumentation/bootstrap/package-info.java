/**
 * The few classes that advice inlined into JDK and application methods calls: they are appended
 * to the bootstrap class path, so that {@code java.lang.VirtualThread} and classes of any loader
 * can see them. Virtual-thread mounts ({@link
 * io.spanflight.internal.instrumentation.bootstrap.VirtualThreadMounts}) and, on JDK 17 and 21,
 * method timing and tracing ({@link io.spanflight.internal.instrumentation.bootstrap.MethodClock},
 * its counters, slots and rings).
 *
 * <p>In: calls from advice on application threads (never throwing into them). Out: plain
 * callbacks ({@link Runnable} and JDK types only) installed by the extension, and counters and
 * rings that the extension's background thread drains.
 *
 * <p>Never imports: anything outside {@code java.base} (the bootstrap loader sees nothing else),
 * in particular no extension, OpenTelemetry or agent class.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.instrumentation.bootstrap;
