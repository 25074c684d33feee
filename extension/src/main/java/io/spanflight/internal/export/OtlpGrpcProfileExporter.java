package io.spanflight.internal.export;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.Compressor;
import io.opentelemetry.sdk.common.export.GrpcResponse;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.opentelemetry.sdk.common.export.MessageWriter;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.spanflight.internal.config.OtlpSettings;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;

/**
 * OTLP/gRPC export of profiles through the agent's own gRPC sender (the SDK's public
 * {@link GrpcSenderProvider} SPI), so the drop-in jar bundles no HTTP/2 stack. The agent's
 * sender lives in the agent's class loader, which the agent never instruments, so exporting
 * creates no spans of its own.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class OtlpGrpcProfileExporter implements ProfileExporter {
  public static final String METHOD =
      "opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export";
  private static final Logger logger = Logger.getLogger(OtlpGrpcProfileExporter.class.getName());

  private final URI endpoint;
  private final GrpcSender sender;
  private final ThrottledLogger failures = new ThrottledLogger(logger, 1, TimeUnit.MINUTES);

  private OtlpGrpcProfileExporter(URI endpoint, GrpcSender sender) {
    this.endpoint = endpoint;
    this.sender = sender;
  }

  /** Creates the exporter, or throws IllegalStateException when no gRPC sender is available. */
  public static OtlpGrpcProfileExporter create(OtlpSettings settings) {
    GrpcSenderProvider provider =
        ServiceLoader.load(GrpcSenderProvider.class, GrpcSenderProvider.class.getClassLoader())
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "no OTLP gRPC sender found (is this running inside the OpenTelemetry javaagent?)"));
    return new OtlpGrpcProfileExporter(
        settings.endpoint(), provider.createSender(new SenderConfig(settings)));
  }

  @Override
  public String destination() {
    return "otlp grpc " + endpoint;
  }

  @Override
  public CompletableResultCode export(byte[] request) {
    CompletableResultCode result = new CompletableResultCode();
    try {
      sender.send(
          new BytesWriter(request),
          response -> onResponse(response, result),
          error -> {
            failures.log(
                Level.WARNING,
                "Spanflight could not export profiles to " + endpoint + ": " + error,
                null);
            result.fail();
          });
    } catch (RuntimeException e) {
      failures.log(Level.WARNING, "Spanflight could not export profiles to " + endpoint, e);
      result.fail();
    }
    return result;
  }

  private void onResponse(GrpcResponse response, CompletableResultCode result) {
    if (response.getStatusCode() == GrpcStatusCode.OK) {
      result.succeed();
      return;
    }
    failures.log(
        Level.WARNING,
        "Spanflight profiles export to "
            + endpoint
            + " failed: "
            + response.getStatusCode()
            + " "
            + response.getStatusDescription(),
        null);
    result.fail();
  }

  @Override
  public CompletableResultCode shutdown() {
    return sender.shutdown();
  }

  private static final class BytesWriter implements MessageWriter {
    private final byte[] bytes;

    BytesWriter(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public void writeMessage(OutputStream output) throws java.io.IOException {
      output.write(bytes);
    }

    @Override
    public int getContentLength() {
      return bytes.length;
    }
  }

  /** The sender settings: endpoint, headers and timeout from the OTLP keys; no compression yet. */
  private static final class SenderConfig implements GrpcSenderConfig {
    private final OtlpSettings settings;

    SenderConfig(OtlpSettings settings) {
      this.settings = settings;
    }

    @Override
    public URI getEndpoint() {
      return settings.endpoint();
    }

    @Override
    public String getFullMethodName() {
      return METHOD;
    }

    @Override
    public Compressor getCompressor() {
      return null;
    }

    @Override
    public Duration getTimeout() {
      return settings.timeout();
    }

    @Override
    public Duration getConnectTimeout() {
      return settings.timeout();
    }

    @Override
    public Supplier<Map<String, List<String>>> getHeadersSupplier() {
      Map<String, List<String>> headers = new java.util.HashMap<>();
      settings.headers().forEach((k, v) -> headers.put(k, Collections.singletonList(v)));
      Map<String, List<String>> fixed = Collections.unmodifiableMap(headers);
      return () -> fixed;
    }

    @Override
    public RetryPolicy getRetryPolicy() {
      return RetryPolicy.getDefault();
    }

    @Override
    public SSLContext getSslContext() {
      return null;
    }

    @Override
    public X509TrustManager getTrustManager() {
      return null;
    }

    @Override
    public ExecutorService getExecutorService() {
      return null;
    }
  }
}
