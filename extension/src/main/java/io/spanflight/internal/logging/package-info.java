/**
 * Logging shared by every stage: {@link io.spanflight.internal.logging.ThrottledLogger} logs a
 * repeated runtime failure at most once per period, with how many were suppressed.
 *
 * <p>In: a {@code java.util.logging.Logger} and the messages of runtime failures, from any stage
 * (jfr, costs, export, the wiring). Out: records on that logger, nothing else.
 *
 * <p>Must never import another Spanflight package: every stage may use it, so it must sit below
 * all of them.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.logging;
