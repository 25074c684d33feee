package io.spanflight.smoke;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.status;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoopbackPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP profiles exporter under collector faults, with the real agent and a real app under a
 * steady load: the app's p99 latency stays within noise of a healthy run, the exporter's queue
 * stays within its bound, every request it was handed ends delivered or dropped (counted by
 * reason), and delivery resumes once the collector is back. Prints the results table.
 */
class FaultsSmokeTest extends SmokeTestBase {
  static final String PROFILES_PATH = OtlpCollector.HTTP_PROFILES_PATH;
  static final int RETRY_AFTER_SECONDS = 2;

  @TempDir
  Path temp;

  private final Jdk jdk = newestJdk();

  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void faults_latencyStaysMemoryBoundedEveryRequestCountedDeliveryResumes() throws Exception {
    List<FaultRow> healthy = new ArrayList<>(List.of(healthy("none (healthy, first)")));
    List<FaultRow> rows = new ArrayList<>(healthy);
    rows.add(collectorAbsentAtStart());
    rows.add(collectorKilledAndRestarted());
    rows.add(wireMock("slow (5 s, timeout 2 s)", ok().withFixedDelay(5000)));
    RetryAfterGaps gaps = new RetryAfterGaps();
    rows.add(wireMock("429, Retry-After: " + RETRY_AFTER_SECONDS + " s",
        status(429).withHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS)), gaps));
    rows.add(wireMock("503", status(503)));
    rows.add(wireMock("connection reset", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    rows.add(tlsNameMismatch());
    rows.add(unresolvableHost());
    healthy.add(healthy("none (healthy, last)"));
    rows.add(healthy.get(1));

    System.out.println("Faults (" + jdk + ", queue size " + FaultRun.QUEUE_SIZE + ", export interval 1 s, timeout "
        + FaultRun.EXPORT_TIMEOUT + ", " + FaultRun.CLIENTS + " clients x 1 request / "
        + FaultRun.PERIOD.toMillis() + " ms to " + FaultRun.LOAD_PATH + ")\n" + FaultRow.table(rows, healthy)
        + FaultRow.problems(rows) + "429: " + gaps);
    FaultChecks.assertAll(rows, healthy, gaps, RETRY_AFTER_SECONDS);
  }

  private FaultRow healthy(String name) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      FaultRow row = new FaultRun(jdk, name, "grpc", collector.endpoint()).run(run -> {
        run.await(r -> collector.profileRequests().size() >= 6, Duration.ofSeconds(40));
        return null;
      });
      return row.withTargetAccepted(collector.profileRequests().size());
    }
  }

  private FaultRow collectorAbsentAtStart() throws Exception {
    int port = LoopbackPorts.free();
    List<OtlpCollector> late = new ArrayList<>();
    try {
      FaultRow row = new FaultRun(jdk, "collector absent at start", "grpc", "http://127.0.0.1:" + port).run(run -> {
        run.awaitQueueFullFor(5);
        late.add(OtlpCollector.start(port));
        return late.get(0).await(c -> c.profileRequests().size() >= 2, Duration.ofSeconds(40));
      });
      return row.withTargetAccepted(received(late));
    } finally {
      late.forEach(OtlpCollector::close);
    }
  }

  private FaultRow collectorKilledAndRestarted() throws Exception {
    List<OtlpCollector> collectors = new ArrayList<>(List.of(OtlpCollector.start()));
    int port = collectors.get(0).port();
    try {
      FaultRow row = new FaultRun(jdk, "collector killed, restarted", "grpc", "http://127.0.0.1:" + port).run(run -> {
        collectors.get(0).await(c -> c.profileRequests().size() >= 2, Duration.ofSeconds(40));
        collectors.get(0).close();
        double killedAt = run.elapsedSeconds();
        run.awaitQueueFullFor(killedAt + 5);
        collectors.add(OtlpCollector.start(port));
        return collectors.get(1).await(c -> c.profileRequests().size() >= 2, Duration.ofSeconds(40));
      });
      return row.withTargetAccepted(received(collectors));
    } finally {
      collectors.forEach(OtlpCollector::close);
    }
  }

  private FaultRow wireMock(String fault, ResponseDefinitionBuilder answer) throws Exception {
    return wireMock(fault, answer, null);
  }

  /** WireMock answers {@code answer} until the queue is full, then 200. */
  private FaultRow wireMock(String fault, ResponseDefinitionBuilder answer, RetryAfterGaps gaps) throws Exception {
    WireMockServer server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    server.start();
    try {
      server.stubFor(post(urlEqualTo(PROFILES_PATH)).willReturn(answer));
      FaultRow row = new FaultRun(jdk, fault, "http/protobuf", "http://127.0.0.1:" + server.port() + PROFILES_PATH)
          .run(run -> {
            run.awaitQueueFullFor(5);
            if (gaps != null) {
              gaps.record(server.getAllServeEvents());
            }
            server.resetMappings(); // keeps the request journal
            server.stubFor(post(urlEqualTo(PROFILES_PATH)).willReturn(ok()));
            return run.await(r -> r.metrics().latest("delivered") >= 1, Duration.ofSeconds(40));
          });
      return row.withTargetAccepted(server.getAllServeEvents().stream()
          .filter(event -> event.getResponse().getStatus() / 100 == 2).count());
    } finally {
      server.stop();
    }
  }

  private FaultRow tlsNameMismatch() throws Exception {
    MismatchedCertificate certificate = MismatchedCertificate.create(jdk, temp);
    WireMockServer server = new WireMockServer(options().bindAddress("127.0.0.1").httpDisabled(true)
        .httpsPort(0).keystorePath(certificate.keyStore().toString()).keystoreType("PKCS12")
        .keystorePassword(MismatchedCertificate.PASSWORD).keyManagerPassword(MismatchedCertificate.PASSWORD));
    server.start();
    try {
      server.stubFor(post(urlEqualTo(PROFILES_PATH)).willReturn(ok()));
      FaultRow row = new FaultRun(jdk, "TLS name mismatch", "http/protobuf",
          "https://127.0.0.1:" + server.httpsPort() + PROFILES_PATH)
          .property("otel.exporter.otlp.profiles.certificate", certificate.certificatePem().toString())
          .run(run -> {
            run.awaitQueueFullFor(6);
            return null;
          });
      return row.withTargetAccepted(server.getAllServeEvents().size()); // none: no handshake succeeds
    } finally {
      server.stop();
    }
  }

  /** A name no resolver knows, without asking a DNS server: the app JVM reads a hosts file only. */
  private FaultRow unresolvableHost() throws Exception {
    Path hosts = Files.writeString(temp.resolve("hosts"), "127.0.0.1 localhost\n");
    return new FaultRun(jdk, "unresolvable host", "http/protobuf", "http://no-such-host.invalid:4318" + PROFILES_PATH)
        .property("jdk.net.hosts.file", hosts.toString())
        .run(run -> {
          run.awaitQueueFullFor(6);
          return null;
        });
  }

  private static long received(List<OtlpCollector> collectors) {
    return collectors.stream().mapToLong(c -> c.profileRequests().size()).sum();
  }
}
