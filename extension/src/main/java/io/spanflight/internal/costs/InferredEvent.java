package io.spanflight.internal.costs;

/**
 * One JFR wait or traced call that the join attributed to a sampled span, as it will become a
 * child span of that span ({@link InferredSpanData}).
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param type the profile's sample type it came from ({@code lock_contention}, {@code park},
 *     {@code socket_read}, {@code method_trace}, ...)
 * @param startNanos its start on the nanoTime clock (the clock the held spans are placed on)
 * @param durationNanos how long it lasted
 * @param threadId the Java id of the thread it ran on
 * @param function the traced method ({@code com.example.Cart.total}), null for a wait
 * @param stack its top frames, one per line, or null when none is known
 * @param detail what it waited on: {@code address:port} of a socket, the path of a file; else null
 */
public record InferredEvent(
    String type, long startNanos, long durationNanos, long threadId, String function, String stack, String detail) {}
