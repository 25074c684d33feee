package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactedTest {

  @Test
  void anEndpointKeepsSchemeHostPortAndPathButNotItsCredentialsOrQueryValues() {
    assertThat(Redacted.endpoint(URI.create("https://user:s3cret@collector:4318/v1development/profiles?token=t0k&x=1#frag")))
        .isEqualTo("https://***@collector:4318/v1development/profiles?token=***&x=***#***");
    assertThat(Redacted.endpoint(URI.create("http://[::1]:4317?apikey"))).isEqualTo("http://[::1]:4317?***");
    assertThat(Redacted.endpoint(URI.create("http://collector:4317"))).isEqualTo("http://collector:4317");
    assertThat(Redacted.endpoint(URI.create("http://u:p@under_score:1/x"))) // no host: registry authority
        .isEqualTo("http://***@under_score:1/x");
  }

  @Test
  void malformedEndpointTextIsMaskedEvenWhereItDoesNotParse() {
    assertThat(Redacted.endpoint("http://us er:pa ss@host:1/p?tok=a b")).isEqualTo("http://***@host:1/p?tok=***");
    assertThat(Redacted.endpoint("http://u:pa?ss@host/p")).isEqualTo("http://***@host/p");
    assertThat(Redacted.endpoint("http://u:pa/ss@host/p")).isEqualTo("http://***@host/p");
    assertThat(Redacted.endpoint("user:pw@host:4317")).isEqualTo("***@host:4317");
    assertThat(Redacted.endpoint("collector:4317")).isEqualTo("collector:4317");
    assertThat(Redacted.endpoint("http://host/p?mail=a@b&t=sec ret")).doesNotContain("sec ret");
    assertThat(Redacted.endpoint("http://host:x\nFAKE LOG LINE")).isEqualTo("http://host:x\\nFAKE LOG LINE");
  }

  @Test
  void headersShowTheirNamesOnly() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("authorization", "Bearer abc");
    headers.put("x-tenant", "acme");
    assertThat(Redacted.headers(headers)).isEqualTo("authorization=***,x-tenant=***");
    assertThat(Redacted.headers("a=1, b = 2,nokey,c=%zz")).isEqualTo("a=***,b=***,***,c=***");
  }

  @Test
  void scrubMasksEachSecretOfFourCharactersOrMore() {
    assertThat(Redacted.scrub("connect to http://u:hunter2@h failed, header hunter2", List.of("hunter2", "u")))
        .isEqualTo("connect to http://u:***@h failed, header ***");
  }

  @Test
  void oneLineEscapesControlCharacters() {
    assertThat(Redacted.oneLine("a\nb\r\tc\u001b[31m\u2028")).isEqualTo("a\\nb\\r\\tc\\u001b[31m\\u2028");
    assertThat(Redacted.oneLine("plain")).isEqualTo("plain");
  }

  @Test
  void theStartupDescriptionShowsNoSecret() {
    SpanflightConfig config = configWithSecrets();
    assertThat(config.errors()).isEmpty();
    assertThat(config.describe())
        .contains("https://***@collector:4318/v1development/profiles?api_key=***", "authorization=***")
        .doesNotContain("alice", "pw-123", "k-456", "tok-789");
    assertThat(config.secrets()).contains("alice:pw-123", "pw-123", "k-456", "Bearer%20tok-789", "Bearer tok-789");
  }

  /** OTLP settings whose endpoint and headers hold secrets: alice, pw-123, k-456, tok-789. */
  private static SpanflightConfig configWithSecrets() {
    return SpanflightConfig.read(
        DefaultConfigProperties.createFromMap(
            Map.of(
                "otel.exporter.otlp.profiles.endpoint", "https://alice:pw-123@collector:4318/v1development/profiles?api_key=k-456",
                "otel.exporter.otlp.profiles.headers", "authorization=Bearer%20tok-789")));
  }

  /** The settings are records: their toString must not print the headers and endpoint as given. */
  @Test
  void theSettingsPrintNoSecret() {
    SpanflightConfig config = configWithSecrets();
    assertThat(config.toString()).isEqualTo(config.describe());
    assertThat(config.otlp().toString())
        .contains("collector:4318")
        .doesNotContain("alice", "pw-123", "k-456", "tok-789");
  }

  @Test
  void theResourceSpanflightExportsHasTheSecretsMaskedThatTheAgentCopiedFromTheCommandLine() {
    Resource resource =
        Resource.create(
            Attributes.of(
                AttributeKey.stringArrayKey("process.command_args"),
                List.of("java", "-Dotel.exporter.otlp.headers=a=Bearer%20tok-789", "-jar", "app.jar"),
                AttributeKey.stringKey("process.command_line"),
                "java -Dotel.exporter.otlp.headers=a=Bearer%20tok-789 -jar app.jar",
                AttributeKey.longKey("process.pid"),
                42L));
    Resource scrubbed = Redacted.resource(resource, List.of("Bearer%20tok-789", "Bearer tok-789"));
    assertThat(scrubbed.getAttribute(AttributeKey.stringArrayKey("process.command_args")))
        .containsExactly("java", "-Dotel.exporter.otlp.headers=a=***", "-jar", "app.jar");
    assertThat(scrubbed.getAttribute(AttributeKey.stringKey("process.command_line")))
        .isEqualTo("java -Dotel.exporter.otlp.headers=a=*** -jar app.jar");
    assertThat(scrubbed.getAttribute(AttributeKey.longKey("process.pid"))).isEqualTo(42L);
    assertThat(Redacted.resource(resource, List.of())).isSameAs(resource);
  }
}
