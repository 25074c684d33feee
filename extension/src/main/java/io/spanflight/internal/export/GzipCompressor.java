package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.export.Compressor;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/**
 * {@code compression=gzip} for the agent's senders: they set {@code Content-Encoding: gzip} (HTTP)
 * or {@code grpc-encoding: gzip} (gRPC) from {@link #getEncoding()}.
 *
 * <p>Not API: internal to Spanflight.
 */
final class GzipCompressor implements Compressor {
  static final GzipCompressor INSTANCE = new GzipCompressor();

  private GzipCompressor() {}

  @Override
  public String getEncoding() {
    return "gzip";
  }

  @Override
  public OutputStream compress(OutputStream out) throws IOException {
    return new GZIPOutputStream(out);
  }
}
