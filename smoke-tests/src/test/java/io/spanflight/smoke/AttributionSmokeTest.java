package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import io.spanflight.smoke.profiles.CpuSamples;
import io.spanflight.smoke.profiles.SpanLink;
import io.spanflight.smoke.profiles.StackSample;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CPU burnt inside HTTP requests shows up in the exported profiles, linked to the SERVER span of
 * the request it was burnt in, judged only from what the collector decoded.
 */
class AttributionSmokeTest extends SmokeTestBase {
  static final String BURN_METHOD = "io.spanflight.smoke.app.BurnWork.burnCpuInsideRequest";
  /** 100 requests x 50 ms of CPU at a 20 ms period is ~250 samples; JDK 17 and 21 catch fewer. */
  static final int MIN_BURN_SAMPLES = 40;

  private static long burnSampleCount(OtlpCollector collector) {
    return CpuSamples.decodeAll(collector.profileRequests()).stream()
        .filter(sample -> sample.contains(BURN_METHOD))
        .mapToLong(StackSample::count)
        .sum();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.spanflight.smoke.SmokeTestBase#jdksUnderTest")
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void burnSamplesLinkToTheirServerSpan(Jdk jdk) throws Exception {
    assertAttribution(jdk, jdk.label(), builder -> builder, "Spanflight context bridge: native");
  }

  /** The context bridge variants the whole path must also work with (on the newest JDK). */
  static Stream<Arguments> bridgeVariants() {
    Jdk jdk = newestJdk();
    return Stream.of(
        Arguments.of(jdk, "check-jni", (UnaryOperator<AppJvm.Builder>) b -> b.jvmArg("-Xcheck:jni"),
            "Spanflight context bridge: native"),
        Arguments.of(jdk, "java-fallback",
            (UnaryOperator<AppJvm.Builder>) b -> b.systemProperty("spanflight.bridge", "java"),
            "Spanflight context bridge: java"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("bridgeVariants")
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void bridgeVariantsAttributeToo(
      Jdk jdk, String variant, UnaryOperator<AppJvm.Builder> options, String expectedBridge) throws Exception {
    assertAttribution(jdk, jdk.label() + "," + variant, options, expectedBridge);
  }

  private void assertAttribution(
      Jdk jdk, String label, UnaryOperator<AppJvm.Builder> options, String expectedBridge) throws Exception {
    try (OtlpCollector collector = OtlpCollector.start()) {
      AppJvm app = options.apply(app(jdk, collector, "attribution")).start();
      try (app) {
        LoadDriver.Result load = new LoadDriver(app.baseUri()).send("/burn?ms=50", 100, 2);
        assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
        // The app keeps running: its periodic exports must deliver, not only its shutdown flush.
        boolean arrived = collector.await(
            c -> burnSampleCount(c) >= MIN_BURN_SAMPLES && !serverSpans(c, "/burn").isEmpty(),
            Duration.ofSeconds(30));
        assertThat(arrived).as(withLog(app, "at least " + MIN_BURN_SAMPLES + " burn samples and"
            + " /burn SERVER spans should arrive; " + received(collector))).isTrue();
      }
      for (ExportProfilesServiceRequest request : collector.profileRequests()) {
        ProfileChecks.assertDictionaryBasics(request, withLog(app, "in a profiles request"));
      }

      Set<SpanLink> spans = serverSpans(collector, "/burn");
      List<StackSample> burn = CpuSamples.decodeAll(collector.profileRequests()).stream()
          .filter(sample -> sample.contains(BURN_METHOD))
          .toList();
      long burnSamples = burn.stream().mapToLong(StackSample::count).sum();
      long linked = burn.stream()
          .filter(sample -> sample.isLinked() && spans.contains(sample.link()))
          .mapToLong(StackSample::count)
          .sum();
      double share = burnSamples == 0 ? 0 : 100.0 * linked / burnSamples;
      System.out.printf(Locale.ROOT, "attribution[%s]: %.1f %% (%d/%d burn samples linked to a"
          + " received span)%n", label, share, linked, burnSamples);
      String log = app.logText();
      assertThat(log).as("the bridge in use").contains(expectedBridge);
      assertThat(log).as("C2 kept off Spanflight's background code").contains("background code compiled by C1 only");
      assertNoJniWarnings(app);

      assertThat(burnSamples).as(withLog(app, "CPU samples with " + BURN_METHOD + " on the stack; "
          + received(collector)))
          .isGreaterThanOrEqualTo(MIN_BURN_SAMPLES);
      assertThat(share).as(withLog(app, String.format(Locale.ROOT, "share of burn samples linked"
          + " to a received /burn SERVER span (%d/%d)", linked, burnSamples)))
          .isGreaterThanOrEqualTo(90.0);
    }
  }
}
