/**
 * Capture: the first stage of the data path, on the application's own threads. Every context
 * switch becomes one bridge call that writes the thread's OTEP-4947 record and appends to its
 * timeline ring.
 *
 * <p>In: each attach and scope close of an OpenTelemetry {@code Context} ({@link
 * io.spanflight.internal.capture.SpanflightContextStorage}, the agent's {@code ContextStorage}
 * wrapped), virtual-thread mounts and unmounts from the instrumentation module's hooks ({@link
 * io.spanflight.internal.capture.CarrierRecordWriter}), user-defined context from the public API
 * ({@link io.spanflight.internal.capture.ApiBootstrap}, {@link
 * io.spanflight.internal.capture.UserContext}). Out: per switch, the context's interned id from
 * {@code registry} handed to {@code bridge.ContextBridge} ({@link
 * io.spanflight.internal.capture.SwitchRecorder}); with {@code otel.spanflight.scope.events}, a JFR
 * {@link io.spanflight.internal.capture.SpanScopeEvent} per long scope, born here and only enabled
 * by {@code jfr}'s recording.
 *
 * <p>May import {@code bridge}, {@code registry} and {@code instrumentation}. Must never import the
 * stages downstream ({@code jfr}, {@code correlate}, {@code filter}, {@code profile}, {@code costs},
 * {@code export}, {@code report}), {@code config}, nor the wiring in {@code io.spanflight.internal}.
 * Nothing here throws into an application thread or allocates on the switch path.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.capture;
