package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.export.MessageWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An encoded request as the agent's senders take it. Retries write it again.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class RequestBody implements MessageWriter {
  private final byte[] bytes;

  public RequestBody(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public void writeMessage(OutputStream output) throws IOException {
    output.write(bytes);
  }

  @Override
  public int getContentLength() {
    return bytes.length;
  }
}
