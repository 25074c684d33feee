package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.opamp.RealOpampServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fleet control over TLS with a token, as the profiles exporter does it: the real OpAMP server
 * serves a self-signed certificate and wants a bearer token. An app that trusts the certificate
 * ({@code otel.spanflight.opamp.certificate}) and sends the token reports to it; an app with a
 * wrong token is refused (HTTP 401), says so in one warning and keeps profiling. Neither token
 * appears in a log.
 */
class OpampTlsSmokeTest extends SmokeTestBase {
  private static final String TOKEN = "t0ken-right";
  private static final String WRONG = "t0ken-wrong";

  @TempDir
  Path temp;

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void anAgentReportsOverTlsWithItsTokenAndAWrongTokenIsRefused() throws Exception {
    CollectorCertificate certificate = CollectorCertificate.create(temp);
    try (RealOpampServer server = RealOpampServer.start(CollectorRoundTripSmokeTest.REPO, temp.resolve("opamp.log"),
            "-tls-cert", certificate.certificatePem().toString(), "-tls-key", certificate.keyPem().toString(),
            "-token", TOKEN);
        OtlpCollector collector = OtlpCollector.start()) {
      assertThat(server.endpoint()).startsWith("https://");
      try (AppJvm trusted = app(server, collector, certificate, "opamp-tls", TOKEN);
          AppJvm refused = app(server, collector, certificate, "opamp-tls-refused", WRONG)) {
        server.awaitMessage(m -> "opamp-tls".equals(OpampFleetSmokeTest.identifying(m, "service.name")),
            Duration.ofSeconds(30));
        assertThat(refused.awaitLog("HTTP 401", Duration.ofSeconds(30)))
            .as(withLog(refused, "a warning for the refused token")).isTrue();
        assertThat(server.messages()).as("nothing of the refused app reached the server")
            .noneMatch(m -> "opamp-tls-refused".equals(OpampFleetSmokeTest.identifying(m, "service.name")));
        assertThat(refused.awaitLog(" started: timeline=", Duration.ofSeconds(30)))
            .as(withLog(refused, "profiling runs without fleet control")).isTrue();
        for (AppJvm app : new AppJvm[] {trusted, refused}) {
          assertThat(app.logText()).doesNotContain(TOKEN).doesNotContain(WRONG);
        }
      }
    }
  }

  private AppJvm app(RealOpampServer server, OtlpCollector collector, CollectorCertificate certificate, String name,
      String token) throws Exception {
    return app(newestJdk(), collector, name)
        .systemProperty("otel.spanflight.opamp.endpoint", server.endpoint())
        .systemProperty("otel.spanflight.opamp.certificate", certificate.certificatePem().toString())
        .systemProperty("otel.spanflight.opamp.interval", "1s")
        .environment("OTEL_SPANFLIGHT_OPAMP_HEADERS", "Authorization=Bearer%20" + token) // not in the logged command
        .start();
  }
}
