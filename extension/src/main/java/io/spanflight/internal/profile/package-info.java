/**
 * Profile building and encoding: joined samples are collected per export interval ({@link
 * io.spanflight.internal.profile.ProfileCollector}, {@link
 * io.spanflight.internal.profile.ProfileInterval}: one profile per sample type, one shared
 * dictionary) and encoded by hand as OTLP protobuf, OTLP/JSON or pprof.
 *
 * <p>In: JFR stack traces, sample types and values, and the span each sample joined ({@code
 * registry.ContextRecord}), from {@code correlate.TimelineJoin} (bound to the collector by {@code
 * jfr}), {@code jfr}'s method-timing deltas and {@code correlate.HookedMethodSamples}; the resource
 * at encoding time. Out: finished intervals and encoded bytes, to {@code export}. Ids are written
 * with {@code format.Hex}, OTLP/JSON with {@code format.JsonWriter}, protobuf with {@code
 * format.ProtoWriter}.
 *
 * <p>Never imports: {@code jfr}, {@code correlate}, {@code costs}, {@code export}, {@code
 * capture}, {@code report}, or the wiring in {@code io.spanflight.internal}; no protobuf library
 * (the generated classes are a test-only oracle).
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.profile;
