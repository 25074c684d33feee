package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;

/**
 * Sends one encoded {@code ExportProfilesServiceRequest}. Never throws: failures complete the
 * result unsuccessfully and are logged (throttled) by the implementation.
 *
 * <p>Not API: internal to Spanflight.
 */
public interface ProfileExporter {

  /** A human-readable destination for log lines ("otlp grpc http://..."). */
  String destination();

  CompletableResultCode export(byte[] request);

  /** Releases connections and threads. */
  CompletableResultCode shutdown();

  /** The exporter for {@code otel.spanflight.exporter=none}: drops everything. */
  ProfileExporter NONE =
      new ProfileExporter() {
        @Override
        public String destination() {
          return "none";
        }

        @Override
        public CompletableResultCode export(byte[] request) {
          return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
          return CompletableResultCode.ofSuccess();
        }
      };
}
