/**
 * Spanflight's public API: user-defined profiling context.
 *
 * <p>{@link io.spanflight.SpanflightContext} adds string entries (a request's endpoint, tenant,
 * job name...) to the current OpenTelemetry context; Spanflight puts them on every profile sample
 * taken while they are current, into the thread's OTEP-4947 record, and lets context filters keep
 * samples by them. Everything else in Spanflight is internal.
 */
package io.spanflight;
