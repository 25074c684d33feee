/**
 * The context registry: interns each span context (and user-defined entries) into a small int id
 * that timelines store, and resolves ids back to {@link
 * io.spanflight.internal.registry.ContextRecord}s when samples are joined.
 *
 * <p>In: span contexts from {@code capture} on application threads ({@link
 * io.spanflight.internal.registry.ContextRegistry#idOf}); span starts and ends from the agent's SDK
 * ({@link io.spanflight.internal.registry.LocalRoots}, which keeps each live span's {@link
 * io.spanflight.internal.registry.LiveSpan}); the ids timelines still refer to, at each prune
 * ({@code IdRecycler} removes the records nothing uses and hands their slots out again).
 * Out: ids (written by {@code capture} through {@code bridge}), records resolved inside a {@link
 * io.spanflight.internal.registry.ReadWindow} (by {@code correlate}'s join) and read by {@code
 * filter} and {@code profile}, the attribute key map of the OTEP-4719 process context.
 *
 * <p>Imports {@code bridge} only (the id layout, {@code ContextIds}, and the bridge that each new
 * context is defined to). Must never import the stages that use it ({@code capture}, {@code
 * correlate}, {@code jfr}, {@code filter}, {@code profile}, {@code costs}, {@code export}, {@code
 * report}), {@code config}, nor the wiring in {@code io.spanflight.internal}.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.registry;
