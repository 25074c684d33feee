package io.spanflight.smoke;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.harness.PacedLoad;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * One case of {@link FaultsSmokeTest}: an app JVM whose traces and metrics go to a healthy
 * observer collector and whose profiles go to {@code profilesEndpoint} (the thing that fails),
 * under a steady paced load while {@link Script} plays the fault; then SIGTERM, and the exporter's
 * final account from its stop line.
 */
final class FaultRun {
  static final int QUEUE_SIZE = 3;
  static final String EXPORT_TIMEOUT = "2s";
  static final String LOAD_PATH = "/burn?ms=2";
  static final int CLIENTS = 2;
  static final Duration PERIOD = Duration.ofMillis(20);
  /** Every case measures at least this long, so that each p99 rests on about 1000 requests. */
  static final double MIN_LOAD_SECONDS = 10;

  /** Plays the fault while the load runs; returns whether delivery resumed (null: not tried). */
  interface Script {
    Boolean play(FaultRun run) throws Exception;
  }

  private final Jdk jdk;
  private final String fault;
  private final String protocol;
  private final String profilesEndpoint;
  private final Map<String, String> properties = new LinkedHashMap<>();
  private OtlpCollector observer;
  private long loadStartNanos;

  FaultRun(Jdk jdk, String fault, String protocol, String profilesEndpoint) {
    this.jdk = jdk;
    this.fault = fault;
    this.protocol = protocol;
    this.profilesEndpoint = profilesEndpoint;
  }

  /** Adds {@code -Dkey=value} to the app's command line. */
  FaultRun property(String key, String value) {
    properties.put(key, value);
    return this;
  }

  /** Seconds since the measured load started. */
  double elapsedSeconds() {
    return (System.nanoTime() - loadStartNanos) / 1e9;
  }

  /** The exporter's self-metrics received so far. */
  ExportSelfMetrics metrics() {
    return ExportSelfMetrics.of(observer.metricRequests());
  }

  /** Waits until {@code condition} holds (re-checked as metrics and spans arrive); false on timeout. */
  boolean await(Predicate<FaultRun> condition, Duration timeout) throws InterruptedException {
    return observer.await(ignored -> condition.test(this), timeout);
  }

  /** Waits until the queue has dropped to stay within its bound and {@code seconds} have passed. */
  boolean awaitQueueFullFor(double seconds) throws InterruptedException {
    return await(r -> r.metrics().latest("dropped_queue_full") >= 1 && r.elapsedSeconds() >= seconds,
        Duration.ofSeconds(40));
  }

  /** Starts the app, warms it up, plays {@code script} under load, stops the app: one table row. */
  FaultRow run(Script script) throws Exception {
    try (OtlpCollector started = OtlpCollector.start()) {
      observer = started;
      AppJvm.Builder builder = SmokeTestBase.app(jdk, observer, "faults")
          .systemProperty("otel.metrics.exporter", "otlp")
          .systemProperty("otel.metric.export.interval", "1000")
          .systemProperty("otel.spanflight.export.interval", "1s")
          .systemProperty("otel.spanflight.export.queue.size", String.valueOf(QUEUE_SIZE))
          .systemProperty("otel.spanflight.export.shutdown.timeout", "1s")
          .systemProperty("otel.exporter.otlp.profiles.protocol", protocol)
          .systemProperty("otel.exporter.otlp.profiles.endpoint", profilesEndpoint)
          .systemProperty("otel.exporter.otlp.profiles.timeout", EXPORT_TIMEOUT);
      properties.forEach(builder::systemProperty);
      AppJvm app = builder.start();
      try (app) {
        LoadDriver.Result warmUp = new LoadDriver(app.baseUri()).send(LOAD_PATH, 300, CLIENTS);
        loadStartNanos = System.nanoTime();
        PacedLoad load = PacedLoad.start(app.baseUri().resolve(LOAD_PATH), CLIENTS, PERIOD);
        Boolean resumed;
        try {
          resumed = script.play(this);
          await(r -> r.elapsedSeconds() >= MIN_LOAD_SECONDS, Duration.ofSeconds(30));
        } finally {
          load.stop();
        }
        PacedLoad.Latencies latencies = load.measured();
        double loadSeconds = elapsedSeconds();
        ExportSelfMetrics duringRun = metrics();
        app.stop();
        String log = app.logText();
        return new FaultRow(fault, latencies, loadSeconds, DeliveryAccount.in(log).orElse(null),
            duringRun.maxPending(), duringRun.pendingReadings(), resumed, warmUp.failed(),
            FaultRow.firstProblem(log), app.logTail(40), -1, metrics().outcomes(), FaultRow.retryWarnings(log),
            FaultRow.stackTraceLines(log));
      }
    }
  }
}
