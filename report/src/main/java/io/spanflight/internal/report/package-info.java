/**
 * The HTML report of exported profiles, {@code java -jar spanflight.jar report}: a tool run
 * offline on what the file exporter wrote, never part of the running agent.
 *
 * <p>Data path: {@link io.spanflight.internal.report.ReportCommand} (arguments, exit status) ->
 * {@code ReportInputs} (which files, bounded by {@code ReportLimits}) -> {@code RequestDecoder},
 * {@code DictionaryDecoder}, {@code AnyValues} over {@code format.ProtoReader} (the hand-written
 * protobuf reader; anything malformed is a {@code MalformedProfileException}) -> {@code
 * ProfilesRequest}
 * -> {@code ReportModel} (flame graphs per sample type, {@code EndpointCosts}) -> {@code
 * HtmlReport} (the page with {@code report.html}, {@code report.css}, {@code report.js} inlined,
 * the model as JSON) and {@code TerminalSummary}.
 *
 * <p>In: files of binary OTLP {@code ExportProfilesServiceRequest}s ({@code *.binpb}); other
 * formats are named and skipped. Out: one self-contained HTML file, a summary on stdout, one line
 * per skipped input on stderr. Called from outside only through {@link
 * io.spanflight.internal.report.ReportCommand#run} (by the extension's {@code SpanflightCli}).
 *
 * <p>Never imports: the extension (any other {@code io.spanflight.internal} package but {@code
 * format}, whose cost kinds, hex ids and protobuf reader it shares with the writer, and {@code
 * tables}), OpenTelemetry, protobuf or any
 * third-party code at run time (the generated classes are a test-only oracle). The module's build
 * enforces this: only {@code profile-format} is on its class path.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.report;
