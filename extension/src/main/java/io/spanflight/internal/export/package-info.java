/**
 * Export: the last stage of the data path, where encoded profiles leave the process.
 *
 * <p>In: one encoded {@code ExportProfilesServiceRequest} per export interval (from {@code
 * profile}'s encoder, handed over by the wiring in {@code io.spanflight.internal}), with the
 * {@code profile.ProfileInterval} for the file exporter's other formats; the settings from {@code
 * config} ({@code OtlpSettings} with its {@code ClientTls}, the file formats). Out: requests on the
 * wire through the agent's OTLP senders ({@link io.spanflight.internal.export.OtlpGrpcTransport},
 * {@link io.spanflight.internal.export.OtlpHttpTransport}) behind a {@link
 * io.spanflight.internal.export.DeliveryQueue}, or files ({@link
 * io.spanflight.internal.export.FileProfileExporter}); to the caller, a result code per request
 * and counts ({@link io.spanflight.internal.export.DeliveryStats}). Nothing here throws into the
 * caller.
 *
 * <p>The delivery queue is one engine over small rules: {@link
 * io.spanflight.internal.export.PendingRequests} (bounded, drops the oldest waiting), {@link
 * io.spanflight.internal.export.RetrySchedule} over {@link io.spanflight.internal.export.Backoff},
 * {@link io.spanflight.internal.export.DeliveryCounters} and {@link
 * io.spanflight.internal.export.DeliveryWarnings}.
 *
 * <p>May import {@code config}, {@code profile}, {@code logging} and {@code threads}. Must never import the stages
 * upstream of {@code profile} ({@code capture}, {@code registry}, {@code jfr}, {@code correlate},
 * {@code filter}), {@code report}, nor the wiring in {@code io.spanflight.internal}; and nothing
 * upstream imports export except that wiring.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.export;
