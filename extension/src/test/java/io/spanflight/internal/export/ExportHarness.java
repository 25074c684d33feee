package io.spanflight.internal.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.ResourceProfiles;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.spanflight.internal.LogLines;
import io.spanflight.internal.config.OtlpSettings;
import io.spanflight.internal.config.SpanflightConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;

/**
 * A {@link DeliveryQueue} over a real transport (the OkHttp senders the agent carries, found by
 * ServiceLoader as in production) configured from OTLP keys, with short backoffs, plus what the
 * failure tests share: numbered requests, polling with a deadline, the exact-count check and a
 * capture of the queue's log.
 */
final class ExportHarness implements AutoCloseable {
  /** The sender's in-call retries, shortened so a persistently failing attempt ends quickly. */
  static final RetryPolicy SHORT_SENDER_RETRIES =
      RetryPolicy.builder()
          .setMaxAttempts(2)
          .setInitialBackoff(Duration.ofMillis(50))
          .setMaxBackoff(Duration.ofMillis(50))
          .setRetryExceptionPredicate(e -> false)
          .build();

  final DeliveryQueue queue;
  final int capacity;
  private final LogLines log = LogLines.listen(DeliveryQueue.class);
  private int produced;

  private ExportHarness(DeliveryQueue queue, int capacity) {
    this.queue = queue;
    this.capacity = capacity;
  }

  /** OTLP settings from {@code properties} as the agent would pass them; no errors allowed. */
  static OtlpSettings settings(Map<String, String> properties) {
    Map<String, String> all = new HashMap<>(properties);
    all.putIfAbsent("otel.spanflight.exporter", "otlp");
    SpanflightConfig config = SpanflightConfig.read(DefaultConfigProperties.createFromMap(all));
    assertThat(config.errors()).isEmpty();
    return config.otlp();
  }

  static ExportHarness start(Map<String, String> properties, int capacity) {
    return start(properties, capacity, SHORT_SENDER_RETRIES);
  }

  static ExportHarness start(Map<String, String> properties, int capacity, RetryPolicy senderRetries) {
    OtlpSettings settings = settings(properties);
    DeliveryQueue queue =
        DeliveryQueue.builder(OtlpProfileExporters.transport(settings, senderRetries))
            .setCapacity(capacity)
            .setInitialBackoff(Duration.ofMillis(50))
            .setMaxBackoff(Duration.ofMillis(250))
            .setAttemptTimeout(settings.timeout().plus(Duration.ofSeconds(2)))
            .setShutdownTimeout(Duration.ofSeconds(2))
            .build();
    return new ExportHarness(queue, capacity);
  }

  /** Request number {@code n}: a valid ExportProfilesServiceRequest that says its number. */
  static byte[] request(int n) {
    return ExportProfilesServiceRequest.newBuilder()
        .addResourceProfiles(ResourceProfiles.newBuilder().setSchemaUrl("request-" + n))
        .build()
        .toByteArray();
  }

  /** The number of a request made by {@link #request}, from its bytes (gzip or not). */
  static int numberOf(byte[] body) {
    try {
      byte[] plain = body;
      if (body.length > 2 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b) {
        plain = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
      }
      String url = ExportProfilesServiceRequest.parseFrom(plain).getResourceProfiles(0).getSchemaUrl();
      return Integer.parseInt(url.substring("request-".length()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Exports the next {@code count} numbered requests (numbers go on from earlier calls). */
  void produce(int count) {
    for (int i = 0; i < count; i++) {
      queue.export(request(produced++));
    }
  }

  int produced() {
    return produced;
  }

  /** Waits until nothing is pending, then checks delivered + dropped == produced exactly. */
  DeliveryStats awaitSettledExactly(Duration timeout) {
    poll(() -> queue.stats().pending() == 0, timeout, () -> "still pending: " + queue.stats());
    DeliveryStats stats = queue.stats();
    assertThat(stats.produced()).as("produced, " + stats).isEqualTo(produced);
    assertThat(stats.delivered() + stats.dropped()).as("delivered + dropped, " + stats).isEqualTo(produced);
    assertThat(stats.maxPending()).as("queue bound, " + stats).isLessThanOrEqualTo(capacity);
    return stats;
  }

  /**
   * Produces {@code count} requests while the collector fails, waits for {@code retries} retries
   * with nothing delivered, runs {@code recover} (the collector gets well) and returns the stats
   * once settled, checked exactly and printed after {@code label}.
   */
  DeliveryStats failThenRecover(String label, int count, long retries, Runnable recover) {
    produce(count);
    awaitRetries(retries);
    assertThat(queue.stats().delivered()).as("delivered while the collector fails").isZero();
    recover.run();
    return settle(label);
  }

  /** Produces {@code count} requests and returns the stats once settled, checked and printed. */
  DeliveryStats produceAndSettle(String label, int count) {
    produce(count);
    return settle(label);
  }

  private DeliveryStats settle(String label) {
    DeliveryStats stats = awaitSettledExactly(Duration.ofSeconds(30));
    System.out.println(label + ": " + stats);
    return stats;
  }

  /** Waits until the queue has retried at least {@code n} times. */
  void awaitRetries(long n) {
    poll(() -> queue.stats().retries() >= n, Duration.ofSeconds(30), () -> "retries: " + queue.stats());
  }

  /** The messages logged by the queue so far. */
  List<String> logMessages() {
    return log.messages();
  }

  /** Polls {@code condition} every 10 ms until it holds; fails with {@code state} at the deadline. */
  static void poll(BooleanSupplier condition, Duration timeout, Supplier<String> state) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("condition not met within " + timeout + "; " + state.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }

  /** A loopback port that was free a moment ago, for a collector that comes up later. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    queue.shutdown().join(10, TimeUnit.SECONDS);
    log.close();
  }
}
