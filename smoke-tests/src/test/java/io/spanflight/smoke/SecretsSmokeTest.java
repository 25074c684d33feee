package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.spanflight.smoke.app.CoexistApp;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets planted in every setting that may hold one (endpoint user info and query, the agent's
 * generic headers, the profiles headers, the TLS client key's content) appear nowhere a person or
 * a tool may read: not in the app's log (agent debug mode, Spanflight at FINE), not in the bytes of
 * the profile, metric and trace requests the collector received, not in the control MBean's
 * attributes. One run exports successfully with the secrets in use, and with a misspelt system
 * property and a misspelt environment variable (each gets one warning naming it and the nearest
 * real key, never its value); one run has malformed settings around secrets, so that
 * the error messages are checked too.
 */
class SecretsSmokeTest extends SmokeTestBase {

  @TempDir Path dir;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aRunThatExportsShowsNoSecret() throws Exception {
    Jdk jdk = newestJdk();
    Map<String, String> secrets = new LinkedHashMap<>();
    for (String where : List.of("user", "password", "query", "generic header", "profiles header")) {
      secrets.put(where, secret());
    }
    // values of misspelt keys: never in the log (the agent copies -D values into the resource as it does any)
    String misspeltProperty = secret();
    String misspeltVariable = secret();
    Map<String, byte[]> seen = new LinkedHashMap<>();
    try (OtlpCollector collector = OtlpCollector.start()) {
      String endpoint = collector.httpEndpoint().replace("http://", "http://" + secrets.get("user") + ":"
          + secrets.get("password") + "@") + OtlpCollector.HTTP_PROFILES_PATH + "?token=" + secrets.get("query");
      AppJvm app = verbose(app(jdk, collector, "secrets-live"))
          .mainClass(CoexistApp.class)
          .systemProperty("otel.exporter.otlp.headers", "x-generic=" + secrets.get("generic header"))
          .systemProperty("otel.exporter.otlp.profiles.protocol", "http/protobuf")
          .systemProperty("otel.exporter.otlp.profiles.endpoint", endpoint)
          .systemProperty("otel.exporter.otlp.profiles.headers", "authorization=Bearer%20" + secrets.get("profiles header"))
          .systemProperty("otel.metrics.exporter", "otlp")
          .systemProperty("otel.metric.export.interval", "2000")
          .systemProperty("otel.spanflight.cpuu.enabled", misspeltProperty)
          .environment("OTEL_SPANFLIGHT_EXPORT_INTERVALL", misspeltVariable)
          .start();
      try (app;
          AppControl control = new AppControl(app.baseUri(), jdk.home())) {
        control.get("/spin?ms=300");
        boolean arrived = collector.await(c -> !c.httpProfileBodies().isEmpty() && !c.metricRequests().isEmpty(),
            Duration.ofSeconds(40));
        assertThat(arrived).as(withLog(app, "a profiles request over HTTP and a metrics request; " + received(collector)))
            .isTrue();
        seen.put("the control MBean's attributes", mbeanAttributes(control.jmx()).getBytes(StandardCharsets.UTF_8));
      }
      seen.put("the app's log", logWithoutCommandLine(app));
      collector.httpProfileBodies().forEach(body -> seen.merge("the profile request bodies", body, SecretsSmokeTest::concat));
      // The agent's own process detector copies the command line, -D secrets included, into the
      // resource of its traces and metrics (not ours to change; the README says to pass secrets as
      // environment variables). Everything else in those requests is checked.
      collector.metricRequests().forEach(r -> seen.merge("the metric requests (but the agent's process.command_*)",
          withoutCommandLine(r).toByteArray(), SecretsSmokeTest::concat));
      collector.traceRequests().forEach(r -> seen.merge("the trace requests (but the agent's process.command_*)",
          withoutCommandLine(r).toByteArray(), SecretsSmokeTest::concat));
    }
    assertNoneContains(seen, secrets);
    assertThat(new String(seen.get("the app's log"), StandardCharsets.UTF_8))
        .as("the startup line, with the endpoint redacted")
        .contains("profiles to otlp http/protobuf http://***@127.0.0.1:", "?token=***", "authorization=***");
    String log = new String(seen.get("the app's log"), StandardCharsets.UTF_8);
    List<String> unknown = log.lines().filter(line -> line.contains("does not know")).collect(Collectors.toList());
    assertThat(unknown).as("one warning per misspelt key").hasSize(2);
    assertThat(unknown).anySatisfy(line -> assertThat(line).contains("system property otel.spanflight.cpuu.enabled"
        + " and ignores it: did you mean otel.spanflight.cpu.enabled?"));
    assertThat(unknown).anySatisfy(line -> assertThat(line).contains("environment variable"
        + " OTEL_SPANFLIGHT_EXPORT_INTERVALL and ignores it: did you mean OTEL_SPANFLIGHT_EXPORT_INTERVAL?"));
    assertThat(log).as("the misspelt keys' values").doesNotContain(misspeltProperty).doesNotContain(misspeltVariable);
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void malformedSettingsAroundSecretsAreRefusedWithoutShowingThem() throws Exception {
    Jdk jdk = newestJdk();
    Map<String, String> secrets = new LinkedHashMap<>();
    for (String where : List.of("password", "query", "header", "header without '='", "key content")) {
      secrets.put(where, secret());
    }
    Path key = dir.resolve("client.key");
    Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(secrets.get("key content").getBytes(StandardCharsets.US_ASCII))
        + "\n" + secrets.get("key content") + "\n-----END PRIVATE KEY-----\n");
    Map<String, byte[]> seen = new LinkedHashMap<>();
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = verbose(app(jdk, collector, "secrets-refused"))
          .systemProperty("otel.exporter.otlp.profiles.endpoint", "http://user:" + secrets.get("password")
              + "@127.0.0.1:1/v1development/profiles?token=" + secrets.get("query") + "&bad=a b")
          .systemProperty("otel.exporter.otlp.profiles.headers", "authorization=" + secrets.get("header") + ","
              + secrets.get("header without '='"))
          .systemProperty("otel.exporter.otlp.profiles.client.certificate", clientCertificate().toString())
          .systemProperty("otel.exporter.otlp.profiles.client.key", key.toString())
          .start();
      try (app) {
        boolean refused = app.awaitLog("Spanflight is off", Duration.ofSeconds(30));
        assertThat(refused).as(withLog(app, "Spanflight refuses its settings")).isTrue();
        app.awaitLog("for otel.exporter.otlp.profiles.client.key", Duration.ofSeconds(5)); // the last line
        seen.put("the app's log", logWithoutCommandLine(app));
      }
    }
    assertNoneContains(seen, secrets);
    assertThat(new String(seen.get("the app's log"), StandardCharsets.UTF_8)).as("one line per bad key")
        .contains("for otel.exporter.otlp.profiles.endpoint", "for otel.exporter.otlp.profiles.headers",
            "for otel.exporter.otlp.profiles.client.key");
  }

  /**
   * The agent's debug mode (its logger, which Spanflight's java.util.logging calls reach, then
   * passes FINE on), and java.util.logging at FINE for io.spanflight in case a record takes the
   * JDK's own path.
   */
  private AppJvm.Builder verbose(AppJvm.Builder app) throws java.io.IOException {
    Path logging = dir.resolve("logging.properties");
    Files.writeString(logging, "handlers=java.util.logging.ConsoleHandler\n"
        + "java.util.logging.ConsoleHandler.level=ALL\n"
        + "io.spanflight.level=FINE\n");
    return app.systemProperty("otel.javaagent.debug", "true")
        .systemProperty("java.util.logging.config.file", logging.toString());
  }

  /** A unique marker, so that finding it anywhere means it leaked. */
  private static String secret() {
    return "sfsecret" + UUID.randomUUID().toString().replace("-", "");
  }

  /** The log without its first line, the command line the harness wrote (which holds the secrets). */
  private static byte[] logWithoutCommandLine(AppJvm app) {
    String log = app.logText();
    return log.substring(log.indexOf('\n') + 1).getBytes(StandardCharsets.UTF_8);
  }

  /** The client certificate of the extension's TLS tests (a valid one, so that the key is read). */
  private static Path clientCertificate() {
    Path repository = PATHS.buildDir().toAbsolutePath().getParent().getParent();
    return repository.resolve("extension/src/test/resources/io/spanflight/internal/export/tls/client.pem");
  }

  private static String mbeanAttributes(MBeanServerConnection jmx) throws Exception {
    ObjectName name = new ObjectName(AppControl.SPANFLIGHT);
    StringBuilder all = new StringBuilder();
    for (MBeanAttributeInfo attribute : jmx.getMBeanInfo(name).getAttributes()) {
      Object value = jmx.getAttribute(name, attribute.getName());
      all.append(attribute.getName()).append('=')
          .append(value instanceof Object[] ? Arrays.toString((Object[]) value) : String.valueOf(value)).append('\n');
    }
    assertThat(all).as("the MBean's configuration").contains("Configuration=");
    return all.toString();
  }

  private static void assertNoneContains(Map<String, byte[]> seen, Map<String, String> secrets) {
    SoftAssertions soft = new SoftAssertions();
    seen.forEach((what, bytes) -> secrets.forEach((where, secret) -> {
      List<String> lines = linesWith(bytes, secret);
      soft.assertThat(indexOf(bytes, secret.getBytes(StandardCharsets.UTF_8)))
          .as("the secret planted in the %s, in %s%s", where, what, lines.isEmpty() ? "" : ": " + lines)
          .isEqualTo(-1);
    }));
    soft.assertAll();
  }

  private static List<String> linesWith(byte[] bytes, String secret) {
    List<String> lines = new ArrayList<>();
    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
      if (line.contains(secret)) {
        lines.add(line.length() > 400 ? line.substring(0, 400) + "..." : line);
      }
    }
    return lines;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static ExportMetricsServiceRequest withoutCommandLine(ExportMetricsServiceRequest request) {
    ExportMetricsServiceRequest.Builder copy = request.toBuilder();
    copy.getResourceMetricsBuilderList().forEach(r -> stripCommandLine(r.getResourceBuilder()));
    return copy.build();
  }

  private static ExportTraceServiceRequest withoutCommandLine(ExportTraceServiceRequest request) {
    ExportTraceServiceRequest.Builder copy = request.toBuilder();
    copy.getResourceSpansBuilderList().forEach(r -> stripCommandLine(r.getResourceBuilder()));
    return copy.build();
  }

  private static void stripCommandLine(Resource.Builder resource) {
    List<KeyValue> kept = new ArrayList<>();
    for (KeyValue attribute : resource.getAttributesList()) {
      if (!attribute.getKey().startsWith("process.command")) {
        kept.add(attribute);
      }
    }
    resource.clearAttributes().addAllAttributes(kept);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }
}
