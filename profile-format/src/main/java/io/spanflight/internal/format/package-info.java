/**
 * What the writer of exported profiles (the extension) and their reader (the HTML report, module
 * {@code report}) must agree on, and the little dependency-free code both share; nothing else.
 *
 * <p>In: nothing; these are constants, pure functions, a JSON writer and a protobuf codec. Out: {@link
 * io.spanflight.internal.format.CostKind}, the kinds of cost and which OTLP sample type is which
 * kind (used by {@code costs} and {@code jfr} for per-span costs, by {@code report} for the
 * per-endpoint table), {@link io.spanflight.internal.format.Hex}, ids as OTLP/JSON writes them,
 * the one JSON writer both write with ({@link io.spanflight.internal.format.JsonWriter}, the
 * extension's OTLP/JSON and the report's page data; {@link
 * io.spanflight.internal.format.JsonString}, its string escapes, which the extension's log lines
 * use too), and the hand-written protobuf codec ({@link io.spanflight.internal.format.ProtoWriter},
 * which the extension's OTLP, pprof and OpAMP encoders write with; {@link
 * io.spanflight.internal.format.ProtoReader}, which the report and the OpAMP client read with,
 * throwing {@link io.spanflight.internal.format.MalformedProtoException} on malformed input).
 *
 * The primitive collections both sides use are in {@code tables}, the module's other package.
 *
 * <p>Never imports: anything but {@code java.base} and {@code tables} (the reader fills a {@code
 * LongList}). In particular no other Spanflight package (this module sits below the extension and
 * the report, so that neither depends on the other for it), no OpenTelemetry and no protobuf
 * classes.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.format;
