package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.spanflight.internal.profile.ProfileInterval;

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

  /**
   * Sends one interval: its encoded request, and the interval itself for exporters that write
   * other formats from it (the file exporter's OTLP/JSON and pprof). The interval may be read only
   * during the call, on the calling thread. By default only the request is sent.
   *
   * @param endEpochNanos the end of the interval, as given to the request encoder
   */
  default CompletableResultCode export(byte[] request, ProfileInterval interval, long endEpochNanos) {
    return export(request);
  }

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
