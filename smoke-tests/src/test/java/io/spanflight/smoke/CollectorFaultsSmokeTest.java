package io.spanflight.smoke;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.collector.RealCollector;
import io.spanflight.smoke.harness.Jdk;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults table of {@link FaultsSmokeTest}, with a real OpenTelemetry Collector process
 * ({@link RealCollector}, {@code examples/collector/profiles-and-traces.yaml}) receiving the
 * profiles over gRPC and passing them on to a test collector: started after the app, killed with
 * SIGKILL and restarted, refusing data through its {@code memory_limiter}, stopped for longer
 * than Spanflight's queue holds, and serving TLS. The same checks per row ({@link FaultChecks});
 * besides, one retry warning per outage and never a stack trace in the app's log.
 */
class CollectorFaultsSmokeTest extends SmokeTestBase {
  static final Path CONFIG = CollectorRoundTripSmokeTest.CONFIG;
  static final Path TLS = Path.of("smoke-tests/src/test/resources/collector/tls-receiver.yaml");
  static final Path REPO = CollectorRoundTripSmokeTest.REPO;

  @TempDir
  Path temp;

  private final Jdk jdk = newestJdk();
  private int collectors;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void realCollectorFaults_latencyBoundedEveryRequestCountedDeliveryResumes() throws Exception {
    List<FaultRow> healthy = new ArrayList<>(List.of(healthy("real Collector healthy (first)")));
    List<FaultRow> outages = new ArrayList<>();
    outages.add(startedAfterTheApp());
    outages.add(killedAndRestarted());
    outages.add(memoryLimiterRefusing());
    outages.add(stoppedLongerThanTheQueueHolds());
    FaultRow tls = tls();
    healthy.add(healthy("real Collector healthy (last)"));
    List<FaultRow> rows = new ArrayList<>(healthy.subList(0, 1));
    rows.addAll(outages);
    rows.add(tls);
    rows.add(healthy.get(1));

    System.out.println("Faults with a real OpenTelemetry Collector (" + jdk + ", queue size " + FaultRun.QUEUE_SIZE
        + ", export interval 1 s)\n" + FaultRow.table(rows, healthy) + FaultRow.problems(rows));
    SoftAssertions soft = new SoftAssertions();
    for (FaultRow row : rows) {
      soft.assertThat(row.stackTraceLines()).as("stack trace lines in the app's log, " + row.fault()).isZero();
    }
    for (FaultRow row : outages) {
      soft.assertThat(row.retryWarnings()).as("retry warnings for one outage, " + row.fault()).isEqualTo(1);
    }
    DeliveryAccount tlsAccount = tls.account();
    soft.assertThat(tlsAccount).as("the exporter's stop line, TLS").isNotNull();
    if (tlsAccount != null) {
      soft.assertThat(tlsAccount.delivered()).as("delivered over TLS: " + tlsAccount).isEqualTo(tlsAccount.produced())
          .isPositive();
    }
    soft.assertThat(tls.retryWarnings()).as("retry warnings over TLS\n" + tls.logTail()).isZero();
    soft.assertThat(tls.targetAccepted()).as("profiles requests the backend got through the TLS Collector").isPositive();
    FaultChecks.checkRows(soft, rows.stream().filter(row -> row != tls).toList(), healthy);
    soft.assertAll();
  }

  /** Through a recording hop in front of the Collector, which counts what the Collector acknowledged. */
  private FaultRow healthy(String name) throws Exception {
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = collector(backend, List.of(CONFIG), Map.of());
        OtlpCollector hop = OtlpCollector.startForwarding(collector.grpcTarget(), collector.httpEndpoint())) {
      FaultRow row = new FaultRun(jdk, name, "grpc", hop.endpoint()).run(run -> {
        run.await(r -> hop.profileRequests().size() >= 6, Duration.ofSeconds(40));
        return null;
      });
      return row.withTargetAccepted(hop.profileRequests().size());
    }
  }

  private FaultRow startedAfterTheApp() throws Exception {
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = RealCollector.notStarted(REPO, List.of(CONFIG), backendEnvironment(backend),
            nextLog())) {
      return new FaultRun(jdk, "Collector started after the app", "grpc", collector.grpcEndpoint()).run(run -> {
        run.awaitQueueFullFor(5);
        collector.start();
        return backend.await(c -> c.profileRequests().size() >= 2, Duration.ofSeconds(40));
      });
    }
  }

  private FaultRow killedAndRestarted() throws Exception {
    return goneAndBack("Collector killed (SIGKILL), restarted", RealCollector::kill, 5);
  }

  /** Stopped for longer than the queue's intervals, so that the queue drops. */
  private FaultRow stoppedLongerThanTheQueueHolds() throws Exception {
    return goneAndBack("Collector stopped > queue (SIGTERM)", RealCollector::close, FaultRun.QUEUE_SIZE + 3);
  }

  /** What ends a running Collector. */
  interface Ending {
    void end(RealCollector collector) throws Exception;
  }

  /** Delivery under way; {@code ending}; the queue full for {@code seconds}; the Collector back. */
  private FaultRow goneAndBack(String name, Ending ending, double seconds) throws Exception {
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = collector(backend, List.of(CONFIG), Map.of())) {
      return new FaultRun(jdk, name, "grpc", collector.grpcEndpoint()).run(run -> {
        backend.await(c -> c.profileRequests().size() >= 2, Duration.ofSeconds(40));
        ending.end(collector);
        run.awaitQueueFullFor(run.elapsedSeconds() + seconds);
        int before = backend.profileRequests().size();
        collector.start();
        return backend.await(c -> c.profileRequests().size() >= before + 2, Duration.ofSeconds(40));
      });
    }
  }

  /** A limit far below the Collector's heap: every request refused (retryable) until it starts with room. */
  private FaultRow memoryLimiterRefusing() throws Exception {
    Map<String, String> tight = Map.of("MEMORY_LIMIT_MIB", "2", "MEMORY_SPIKE_LIMIT_MIB", "1");
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = collector(backend, List.of(CONFIG), tight)) {
      return new FaultRun(jdk, "Collector memory_limiter refusing", "grpc", collector.grpcEndpoint()).run(run -> {
        run.awaitQueueFullFor(5);
        collector.close();
        collector.startWith("MEMORY_LIMIT_MIB", "512");
        return backend.await(c -> c.profileRequests().size() >= 2, Duration.ofSeconds(40));
      });
    }
  }

  private FaultRow tls() throws Exception {
    CollectorCertificate certificate = CollectorCertificate.create(temp);
    try (OtlpCollector backend = OtlpCollector.startBehindAnotherSender();
        RealCollector collector = collector(backend, List.of(CONFIG, TLS), Map.of(
            "TLS_CERT_FILE", certificate.certificatePem().toString(),
            "TLS_KEY_FILE", certificate.keyPem().toString()))) {
      FaultRow row = new FaultRun(jdk, "TLS, the Collector's certificate", "grpc",
          "https://" + collector.grpcTarget())
          .property("otel.exporter.otlp.profiles.certificate", certificate.certificatePem().toString())
          .run(run -> {
            backend.await(c -> c.profileRequests().size() >= 4, Duration.ofSeconds(40));
            return null;
          });
      return row.withTargetAccepted(backend.profileRequests().size());
    }
  }

  private RealCollector collector(OtlpCollector backend, List<Path> configs, Map<String, String> extra)
      throws Exception {
    Map<String, String> environment = new HashMap<>(backendEnvironment(backend));
    environment.putAll(extra);
    return RealCollector.start(REPO, configs, environment, nextLog());
  }

  private static Map<String, String> backendEnvironment(OtlpCollector backend) {
    return Map.of("BACKEND_OTLP_GRPC_ENDPOINT", "127.0.0.1:" + backend.port(), "BACKEND_INSECURE", "true");
  }

  private Path nextLog() {
    return temp.resolve("collector-" + (++collectors) + ".log");
  }
}
