package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.browser.BrowserPage;
import io.spanflight.smoke.browser.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The page's arithmetic on a small known profile with recursion, in chromium: frame widths,
 * self and total in the top-methods table (a recursive method counts once per call path), the
 * share that a search matches (nested matches not counted twice), and zoom.
 *
 * <pre>
 *   Main.main > Alpha.run > Beta.run > Alpha.run > Gamma.leaf   3 samples
 *   Main.main > Alpha.run > Beta.run                             2 samples
 *   Main.main > Alpha.run                                        1 sample
 * </pre>
 *
 * <p>A second trace of the endpoint holds only an allocation sample of 3 KB, so the cost table
 * shows two requests, 6 CPU samples (120 ms), 60 ms and 1.5 KB per request.
 */
class ReportFlameGraphSmokeTest extends SmokeTestBase {
  static final String MAIN = "app.Main.main";
  static final String ALPHA = "app.Alpha.run";
  static final String BETA = "app.Beta.run";
  static final String GAMMA = "app.Gamma.leaf";
  static final Duration UI_TIMEOUT = Duration.ofSeconds(30);

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void widthsTotalsSearchAndZoomFollowTheSamples() throws Exception {
    Optional<Path> chromium = HeadlessChromium.find();
    Assumptions.assumeTrue(chromium.isPresent(),
        "chromium not found on the PATH (Debian package 'chromium'); skipping the flame graph browser test");
    Path work = PATHS.buildDir().resolve("report-flame");
    Path profiles = ReportBrowserSmokeTest.clear(work.resolve("profiles"));
    SyntheticProfiles.Request request = new SyntheticProfiles.Request();
    int link = request.link("0102030405060708090a0b0c0d0e0f10", "1112131415161718");
    int[] endpoint = request.endpoint(0);
    request.sample(0, request.stack(List.of(MAIN, ALPHA, BETA, ALPHA, GAMMA)), link, endpoint, 3, 1);
    request.sample(0, request.stack(List.of(MAIN, ALPHA, BETA)), link, endpoint, 2, 2);
    request.sample(0, request.stack(List.of(MAIN, ALPHA)), link, endpoint, 1, 3);
    // a second request of the endpoint that left only an allocation sample: two requests seen
    int second = request.link("2102030405060708090a0b0c0d0e0f10", "2112131415161718");
    request.sample(1, request.stack(List.of(MAIN, ALPHA)), second, endpoint, 3072, 4);
    Files.write(profiles.resolve("spanflight-1-1-1.binpb"), request.build().toByteArray());
    Path html = work.resolve("index.html");
    ReportCli.run(newestJdk(), PATHS, profiles, html);

    try (HeadlessChromium browser = HeadlessChromium.start(chromium.get(), work, 1200, 900)) {
      BrowserPage page = new BrowserPage(browser.page());
      page.open(html, "document.body.dataset.ready === 'true'", UI_TIMEOUT);
      page.click("#endpoints .item[data-kind=endpoint][data-index=\"0\"]");
      page.awaitTrue("document.getElementById('selection-title').textContent === 'Endpoint POST /checkout'", UI_TIMEOUT);

      assertThat(page.evaluate(widthsOf(MAIN))).isEqualTo(List.of("100.00"));
      assertThat(page.evaluate(widthsOf(ALPHA))).as("below Main, and below Beta").isEqualTo(List.of("100.00", "50.00"));
      assertThat(page.evaluate(widthsOf(BETA))).isEqualTo(List.of("83.33"));
      assertThat(page.evaluate(widthsOf(GAMMA))).isEqualTo(List.of("50.00"));

      assertThat(page.texts("#top-methods tbody tr")).containsExactly(
          row(GAMMA, 3, 3), row(BETA, 2, 5), row(ALPHA, 1, 6),
          MAIN + "0 samples (≈0 ns)0.0%" + samples(6) + percentText(6));

      page.type("#search", "Alpha");
      page.awaitTrue("document.getElementById('search-result').textContent.startsWith('matched')", UI_TIMEOUT);
      assertThat(page.texts("#search-result")).containsExactly("matched 6 samples (≈120.0 ms) of 6 samples (≈120.0 ms) (100.0%)");
      assertThat(page.evaluate("document.querySelectorAll('#flame .frame.match').length")).isEqualTo(2L);

      page.click("#flame .frame[data-name=\"" + BETA + "\"]");
      page.awaitTrue("document.querySelector('#flame .frame[data-name=\"" + BETA + "\"]').style.width === '100%'", UI_TIMEOUT);
      assertThat(page.evaluate(widthsOf(ALPHA))).as("the ancestor and the zoomed-in recursive call")
          .isEqualTo(List.of("100.00", "60.00"));
      assertThat(ReportBrowserSmokeTest.costRows(page)).as("the cost table: header, then a row per endpoint")
          .containsExactly(
              List.of("endpoint", "requests seen", "CPU samples", "CPU (est.)", "CPU / request (est.)", "allocated / request"),
              List.of("POST /checkout", "2", "6", "120.0 ms", "60.0 ms", "1.5 KB"));
      page.screenshot(work.resolve("report-flame.png"));
      assertThat(page.errors()).isEmpty();
    }
  }

  /** The widths in percent, two decimals, of the frames of {@code name}, in document order. */
  private static String widthsOf(String name) {
    return "Array.from(document.querySelectorAll('#flame .frame[data-name=\"" + name + "\"]'))"
        + ".map(e => parseFloat(e.style.width).toFixed(2))";
  }

  /** A top-methods row as its cells' text run together. */
  private static String row(String method, long self, long total) {
    return method + samples(self) + percentText(self) + samples(total) + percentText(total);
  }

  private static String samples(long count) {
    return count + (count == 1 ? " sample" : " samples") + " (≈" + (count * 20) + ".0 ms)";
  }

  private static String percentText(long count) {
    return String.format(Locale.ROOT, "%.1f%%", 100.0 * count / 6);
  }
}
