package io.spanflight.internal.opamp;

import io.opentelemetry.sdk.common.export.Compressor;
import io.opentelemetry.sdk.common.export.HttpResponse;
import io.opentelemetry.sdk.common.export.HttpSender;
import io.opentelemetry.sdk.common.export.HttpSenderConfig;
import io.opentelemetry.sdk.common.export.HttpSenderProvider;
import io.opentelemetry.sdk.common.export.ProxyOptions;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.spanflight.internal.config.OpampSettings;
import io.spanflight.internal.config.Redacted;
import io.spanflight.internal.export.RequestBody;
import io.spanflight.internal.export.SenderProviders;
import io.spanflight.internal.threads.OwnThreads;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;

/**
 * OpAMP's plain HTTP transport: each message is one {@code POST} of an AgentToServer, answered by
 * one ServerToAgent, through the agent's own HTTP sender (as the profiles go; the jar bundles no
 * HTTP client). The sender does not retry: the client's own poll is the retry. Replies larger than
 * {@link #MAX_REPLY_BYTES} are refused by the sender. Failure messages are scrubbed of the
 * settings' secrets.
 *
 * <p>Not API: internal to Spanflight.
 */
final class OpampHttp implements OpampClient.Transport {
  /** OpAMP requires exactly this content type on plain HTTP (anything else is taken for WebSocket). */
  static final String CONTENT_TYPE = "application/x-protobuf";
  /** The spec's default cap is 64 MiB; Spanflight's remote settings are at most 64 KiB. */
  static final long MAX_REPLY_BYTES = 1024 * 1024;

  private final OpampSettings settings;
  private final ExecutorService executor = Executors.newCachedThreadPool(OwnThreads.factory("spanflight-opamp-http"));
  private final HttpSender sender;
  private volatile String instanceUid = "";

  OpampHttp(OpampSettings settings) {
    this.settings = settings;
    this.sender = SenderProviders.load(HttpSenderProvider.class).createSender(new Config());
  }

  @Override
  public byte[] post(byte[] body, String uidText) throws IOException {
    instanceUid = uidText;
    CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
    try {
      sender.send(new RequestBody(body), answer::complete, answer::completeExceptionally);
      HttpResponse response = answer.get(settings.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
      int status = response.getStatusCode();
      if (status != 200) {
        throw new IOException("HTTP " + status + " " + scrubbed(response.getStatusMessage()));
      }
      return response.getResponseBody();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IOException(scrubbed(cause.getClass().getSimpleName() + ": " + cause.getMessage()));
    } catch (TimeoutException e) {
      throw new IOException("no answer within " + settings.timeout().toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    } catch (RuntimeException e) {
      throw new IOException(scrubbed(e.getClass().getSimpleName() + ": " + e.getMessage()));
    }
  }

  private String scrubbed(String text) {
    return Redacted.oneLine(Redacted.scrub(String.valueOf(text), settings.secrets()));
  }

  @Override
  public void close() {
    sender.shutdown();
    executor.shutdownNow();
  }

  /** What the agent's sender is told. */
  private final class Config implements HttpSenderConfig {
    private final Map<String, List<String>> headers = new LinkedHashMap<>();

    Config() {
      settings.headers().forEach((k, v) -> headers.put(k, Collections.singletonList(v)));
    }

    @Override
    public URI getEndpoint() {
      return settings.endpoint();
    }

    @Override
    public String getContentType() {
      return CONTENT_TYPE;
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
      return () -> {
        Map<String, List<String>> all = new LinkedHashMap<>(headers);
        all.put("OpAMP-Instance-UID", Collections.singletonList(instanceUid));
        return all;
      };
    }

    @Override
    public ProxyOptions getProxyOptions() {
      return null;
    }

    @Override
    public RetryPolicy getRetryPolicy() {
      return null; // no retries within a call: the next poll is the retry
    }

    @Override
    public SSLContext getSslContext() {
      return settings.tls() == null ? null : settings.tls().sslContext();
    }

    @Override
    public X509TrustManager getTrustManager() {
      return settings.tls() == null ? null : settings.tls().trustManager();
    }

    @Override
    public ExecutorService getExecutorService() {
      return executor;
    }

    @Override
    public long getMaxResponseBodySize() {
      return MAX_REPLY_BYTES;
    }

    @Override
    public List<String> getEnabledProtocols() {
      return null;
    }
  }
}
