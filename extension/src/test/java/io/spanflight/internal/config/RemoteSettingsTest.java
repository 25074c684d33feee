package io.spanflight.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Run-time settings as text (remote configuration, the MBean): what the parser accepts, what the
 * local limits refuse, and the layers that decide which value is in force. Every refusal names the
 * key or the line, on one line, and a refused text changes nothing.
 */
class RemoteSettingsTest {
  private static final ConfigProperties LOCAL = DefaultConfigProperties.createFromMap(
      Map.of("otel.spanflight.exporter", "none", "otel.spanflight.cpu.period", "20ms"));
  private static final Instant NOW = Instant.parse("2026-12-06T22:00:00Z");

  private static List<String> errorsOf(String text) {
    List<String> errors = new ArrayList<>();
    RemoteSettings.parse(text, errors);
    return errors;
  }

  @Test
  void readsKeysCommentsAndTheTimeBox() {
    List<String> errors = new ArrayList<>();
    RemoteSettings settings = RemoteSettings.parse(
        "# fleet: trace checkout\n otel.spanflight.methodtrace.filter = com.shop.Checkout::pay\r\n\n"
            + "otel.spanflight.cpu.period=10ms\ntime.box=10m\n", errors);
    assertThat(errors).isEmpty();
    assertThat(settings.values()).containsExactly(
        Map.entry("otel.spanflight.methodtrace.filter", "com.shop.Checkout::pay"),
        Map.entry("otel.spanflight.cpu.period", "10ms"));
    assertThat(settings.timeBox()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void refusesEveryBadLineWithItsReason() {
    List<String> errors = errorsOf("otel.spanflight.exporter=file\notel.spanflight.cpu.perod=10ms\nnonsense\n"
        + "otel.spanflight.enabled=true\notel.spanflight.enabled=false\ntime.box=0s\n");
    assertThat(errors).hasSize(5).allSatisfy(e -> assertThat(e).doesNotContain("\n"));
    assertThat(errors.get(0)).contains("line 1", "otel.spanflight.exporter", "read at start only");
    assertThat(errors.get(1)).contains("line 2", "unknown key", "did you mean otel.spanflight.cpu.period?");
    assertThat(errors.get(2)).contains("line 3", "is not key=value");
    assertThat(errors.get(3)).contains("line 5", "set twice");
    assertThat(errors.get(4)).contains("time.box", "a duration between 1s and 168h");
  }

  @Test
  void refusesTextTooLargeOrNotUtf8() {
    assertThat(RemoteSettings.parse(new byte[RemoteSettings.MAX_BYTES + 1], new ArrayList<>())).isEqualTo(RemoteSettings.NONE);
    List<String> errors = new ArrayList<>();
    RemoteSettings.parse(new byte[] {'a', (byte) 0xff, '='}, errors);
    assertThat(errors).containsExactly("the settings are not UTF-8 text");
    assertThat(errorsOf("#\n".repeat(RemoteSettings.MAX_LINES + 1))).singleElement().asString().contains("lines");
  }

  @Test
  void theLimitsRefuseWhatTheOperatorCapped() {
    RemoteLimits limits = limits(Map.of(RemoteLimits.ALLOW, "enabled,sources,methodtiming,methodtrace",
        RemoteLimits.MAX_TIME_BOX, "1h"));
    List<String> errors = new ArrayList<>();
    limits.check(Map.of(
        "otel.spanflight.cpu.period", "1ms",
        "otel.spanflight.lock.threshold", "0ms",
        "otel.spanflight.alloc.throttle", "5/ms",
        "otel.spanflight.context.filter", "hasContext",
        "otel.spanflight.methodtrace.filter", "com.shop.Cart;java.lang.String::hashCode",
        "otel.spanflight.methodtiming.filter", "::toString"), Duration.ofHours(2), errors);
    assertThat(String.join("\n", errors))
        .contains("time.box", "local limit otel.spanflight.opamp.max.time.box")
        .contains("otel.spanflight.cpu.period", "at least 10ms (local limit otel.spanflight.opamp.min.period)")
        .contains("otel.spanflight.lock.threshold", "at least 1ms")
        .contains("otel.spanflight.alloc.throttle", "at most 1000/s")
        .contains("otel.spanflight.context.filter", "leaves out context.filter")
        .contains("otel.spanflight.methodtrace.filter", "no class under java.")
        .contains("otel.spanflight.methodtiming.filter", "matches the JDK's methods too");
    assertThat(errors).hasSize(7);
  }

  @Test
  void withinTheLimitsNothingIsRefused() {
    List<String> errors = new ArrayList<>();
    limits(Map.of()).check(Map.of("otel.spanflight.cpu.period", "10ms", "otel.spanflight.alloc.throttle", "1000/s",
        "otel.spanflight.methodtrace.filter", "com.shop.Cart::add;@com.shop.Traced"), null, errors);
    assertThat(errors).isEmpty();
  }

  @Test
  void spanflightsOwnClassesAreGuardedNotApplicationsUnderItsNamespace() {
    for (String ours : List.of("io.spanflight.internal.Spanflight::apply", "io.spanflight.SpanflightContext",
        "@io.spanflight.internal.Timed", "io.spanflight.ContextScope::close")) {
      List<String> errors = new ArrayList<>();
      limits(Map.of()).check(Map.of("otel.spanflight.methodtrace.filter", ours), null, errors);
      assertThat(errors).as(ours).singleElement().asString().contains("otel.spanflight.methodtrace.filter");
    }
    List<String> errors = new ArrayList<>();
    limits(Map.of()).check(Map.of("otel.spanflight.methodtrace.filter",
        "io.spanflight.demo.service.CatalogSearch::search;io.spanflight.smoke.app.methods.MethodWork$ByClass"), null, errors);
    assertThat(errors).isEmpty();
  }

  @Test
  void aBadValueGetsTheSameMessageAsAtStartAndNothingIsTaken() {
    SettingsLayers layers = new SettingsLayers(LOCAL, limits(Map.of()));
    SettingsLayers.Proposal proposal =
        layers.proposeRemote(parse("otel.spanflight.cpu.period=soon\notel.spanflight.park.enabled=false"), NOW);
    assertThat(proposal.valid()).isFalse();
    String atStart = SpanflightConfig.read(DefaultConfigProperties.createFromMap(
        Map.of("otel.spanflight.exporter", "none", "otel.spanflight.cpu.period", "soon"))).errors().get(0);
    assertThat(proposal.errors()).containsExactly(atStart);
    assertThat(layers.origins()).isEmpty();
  }

  @Test
  void theMbeanIsAboveRemoteWhichIsAboveLocal() {
    SettingsLayers layers = new SettingsLayers(LOCAL, limits(Map.of()));
    SettingsLayers.Proposal remote = layers.proposeRemote(
        parse("otel.spanflight.cpu.period=50ms\notel.spanflight.export.interval=30s\ntime.box=10m"), NOW);
    assertThat(remote.valid()).isTrue();
    assertThat(remote.changes()).isTrue();
    layers.commit(remote);
    SettingsLayers.Proposal byHand = layers.proposeJmx("otel.spanflight.cpu.period", "40ms");
    assertThat(byHand.config().sources().toString()).contains("(period=40 ms)");
    assertThat(byHand.config().exportInterval()).isEqualTo(Duration.ofSeconds(30));
    layers.commit(byHand);
    assertThat(layers.origins()).containsExactly(
        "otel.spanflight.cpu.period=40ms (jmx)", "otel.spanflight.export.interval=30s (remote until 2026-12-06T22:10:00Z)");
    assertThat(layers.origin("otel.spanflight.cpu.period")).isEqualTo(SettingsLayers.Origin.JMX);
    assertThat(layers.remoteUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
    // the remote layer ends (its time box): the MBean's value stays, the interval is local again
    SettingsLayers.Proposal ended = layers.proposeRemote(RemoteSettings.NONE, NOW);
    assertThat(ended.config().exportInterval()).isEqualTo(SpanflightConfig.DEFAULT_EXPORT_INTERVAL);
    assertThat(ended.config().sources().toString()).contains("(period=40 ms)");
  }

  @Test
  void theSameValuesAgainChangeNothing() {
    SettingsLayers layers = new SettingsLayers(LOCAL, limits(Map.of()));
    assertThat(layers.proposeRemote(parse("otel.spanflight.cpu.period=20ms"), NOW).changes()).isFalse();
    assertThat(layers.proposeRemote(parse("otel.spanflight.cpu.period=30ms"), NOW).changes()).isTrue();
  }

  @Test
  void withoutFleetControlNoRemoteLayerIsTaken() {
    SettingsLayers layers = new SettingsLayers(LOCAL, null);
    assertThat(layers.proposeRemote(parse("otel.spanflight.enabled=false"), NOW).errors())
        .containsExactly("remote configuration is not accepted here");
    assertThat(layers.proposeJmx("otel.spanflight.enabled", "false").valid()).isTrue();
  }

  private static RemoteSettings parse(String text) {
    List<String> errors = new ArrayList<>();
    RemoteSettings settings = RemoteSettings.parse(text, errors);
    assertThat(errors).isEmpty();
    return settings;
  }

  private static RemoteLimits limits(Map<String, String> settings) {
    List<String> errors = new ArrayList<>();
    RemoteLimits limits = RemoteLimits.read(new Settings(DefaultConfigProperties.createFromMap(settings)), errors);
    assertThat(errors).isEmpty();
    return limits;
  }
}
