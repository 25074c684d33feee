/**
 * The per-thread context record and the switch rings, in native memory ({@code libspanflight.so},
 * whose whole ABI is {@code spanflight.h}) or, where the library cannot load, in a pure-Java
 * fallback: {@link io.spanflight.internal.bridge.ContextBridge} is the one interface both
 * implement, chosen once by {@link io.spanflight.internal.bridge.ContextBridges}.
 *
 * <p>In: from {@code capture}, one call per context switch (an interned context id); from
 * {@code registry}, what each id stands for (trace and span ids, flags, packed attributes). Out:
 * the OTEP-4947 thread record, readable by external profilers, and the drained ring entries
 * (time, context id, thread id) to a {@link io.spanflight.internal.bridge.TimelineSink}, with
 * switch-clock ticks mapped to {@code System.nanoTime()} ({@link
 * io.spanflight.internal.bridge.SwitchClock}, {@link io.spanflight.internal.bridge.TickClockMap}).
 * The library is extracted into a directory only this user can write ({@link
 * io.spanflight.internal.bridge.PrivateDirectory}).
 *
 * <p>Never imports: anything of the extension (this module is built before it), the OpenTelemetry
 * API or SDK, JFR.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.bridge;
