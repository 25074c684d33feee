package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.spanflight.smoke.browser.BrowserPage;
import io.spanflight.smoke.browser.HeadlessChromium;
import io.spanflight.smoke.browser.Json;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTML report of a real app run, opened in headless Debian chromium through the DevTools
 * protocol: the endpoints found in the exported files are listed, clicking one shows a flame graph
 * with the method its requests burn CPU in, search highlights it, clicking it zooms, a trace
 * shows its own graph, and the page logs no errors. Screenshots are saved under {@code
 * target/report-browser/}. Skipped, saying so, only where no chromium is installed.
 *
 * <p>Until samples carry the endpoint attributes ({@code http.request.method}, {@code
 * http.route}) all of them are under "(no endpoint)"; the test then checks that group holds every
 * burn method, and checks each endpoint as soon as the files name them.
 */
class ReportBrowserSmokeTest extends SmokeTestBase {
  /** The app the report is made from. */
  static final ReportedApp APP = ReportedApp.demo();
  static final Duration LOAD = Duration.ofSeconds(8);
  static final Duration UI_TIMEOUT = Duration.ofSeconds(30);
  static final String NO_ENDPOINT = "(no endpoint)";

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void reportOfARealRunWorksInChromium() throws Exception {
    Optional<Path> chromium = HeadlessChromium.find();
    Assumptions.assumeTrue(chromium.isPresent(),
        "chromium not found on the PATH (Debian package 'chromium'); skipping the report browser test");
    Path work = PATHS.buildDir().resolve("report-browser");
    Path profiles = clear(work.resolve("profiles"));
    Path html = work.resolve("index.html");
    Jdk jdk = newestJdk();

    AppJvm app = APP.start(jdk, PATHS, profiles);
    try (app) {
      LoadDriver.Result load = new LoadDriver(app.baseUri()).sendFor(LOAD, APP.requests(), 2,
          Duration.ofSeconds(4), progress -> {});
      assertThat(load.failed()).as(withLog(app, "requests: " + load)).isZero();
    }
    String summary = ReportCli.run(jdk, PATHS, profiles, html);
    System.out.println(summary);
    Map<String, Long> cpuByEndpoint = cpuSamplesByEndpoint(profiles);
    Map<String, LinkedCosts> linked = linkedCostsByEndpoint(profiles);

    try (HeadlessChromium browser = HeadlessChromium.start(chromium.get(), work, 1400, 1000)) {
      BrowserPage page = new BrowserPage(browser.page());
      page.open(html, "document.body.dataset.ready === 'true'", UI_TIMEOUT);

      List<String> listed = page.texts("#endpoints .item[data-kind=endpoint] .name");
      assertThat(listed).as("endpoints listed").containsExactlyInAnyOrderElementsOf(cpuByEndpoint.keySet());

      Map<String, String> methods = APP.burnMethodByRoute();
      boolean named = listed.stream().anyMatch(name -> !name.equals(NO_ENDPOINT));
      String shownMethod = null; // a burn method of the endpoint shown last
      for (Map.Entry<String, String> route : new TreeMap<>(methods).entrySet()) {
        Optional<String> endpoint = listed.stream()
            .filter(name -> name.equals(route.getKey()) || name.endsWith(" " + route.getKey())).findFirst();
        if (named) {
          assertThat(endpoint).as("an endpoint for route " + route.getKey() + " in " + listed).isPresent();
          showEndpoint(page, listed.indexOf(endpoint.get()), endpoint.get(), List.of(route.getValue()),
              cpuByEndpoint.get(endpoint.get()));
        }
        shownMethod = route.getValue();
      }
      if (!named) {
        System.out.println("ReportBrowserSmokeTest: the samples carry no http.route yet; checking that "
            + NO_ENDPOINT + " holds every burn method");
        showEndpoint(page, listed.indexOf(NO_ENDPOINT), NO_ENDPOINT, List.copyOf(methods.values()),
            cpuByEndpoint.get(NO_ENDPOINT));
      }
      page.screenshot(work.resolve("report.png"));
      checkCostTable(page, summary, linked);

      String frame = "#flame .frame[data-name=\"" + shownMethod + "\"]";
      page.type("#search", shownMethod.substring(shownMethod.lastIndexOf('.') + 1));
      page.awaitTrue("document.querySelectorAll('#flame .frame.match').length > 0"
          + " && document.getElementById('search-result').textContent.startsWith('matched')", UI_TIMEOUT);
      page.screenshot(work.resolve("report-search.png"));

      Object node = page.evaluate("document.querySelector('" + frame.replace("'", "\\'") + "').dataset.node");
      page.click(frame);
      page.awaitTrue("document.querySelector('#flame .frame[data-node=\"" + node + "\"]').style.width === '100%'",
          UI_TIMEOUT);

      page.click("#traces .item[data-kind=trace]");
      page.awaitTrue("document.getElementById('selection-title').textContent.startsWith('Trace ')"
          + " && document.querySelectorAll('#flame .frame').length > 1", UI_TIMEOUT);

      System.out.println("ReportBrowserSmokeTest: first render " + page.evaluate("Math.round(window.spanflightReport.renderMs)")
          + " ms, last selection " + page.evaluate("Math.round(window.spanflightReport.lastSelectMs)") + " ms; screenshots in " + work);
      assertThat(page.errors()).as("console errors, uncaught exceptions, error log entries").isEmpty();
    }
  }

  /**
   * Clicks the endpoint and checks that its CPU tab counts {@code cpuSamples} samples and that its
   * flame graph and top-methods table show each method.
   */
  private static void showEndpoint(BrowserPage page, int index, String name, List<String> methods, long cpuSamples) {
    page.click("#endpoints .item[data-kind=endpoint][data-index=\"" + index + "\"]");
    page.awaitTrue("document.getElementById('selection-title').textContent === " + js("Endpoint " + name), UI_TIMEOUT);
    assertThat(page.texts("#type-tabs button.active")).as("the CPU tab of " + name).singleElement().asString()
        .startsWith("cpu · " + cpuSamples + " samples (≈");
    for (String method : methods) {
      page.awaitTrue("document.querySelector('#flame .frame[data-name=" + js(method).replace("'", "\\'") + "]') !== null",
          UI_TIMEOUT);
      assertThat(page.texts("#top-methods td.method")).as("top methods of " + name).contains(method);
    }
  }

  /** Per endpoint, what its samples that link to a span add up to, read with the generated classes. */
  static final class LinkedCosts {
    final Set<String> traces = new HashSet<>();
    long cpuSamples;
  }

  static Map<String, LinkedCosts> linkedCostsByEndpoint(Path profiles) throws IOException {
    Map<String, LinkedCosts> all = new TreeMap<>();
    Set<String> withCosts = new HashSet<>(); // endpoints with a linked sample of a cost type
    Set<String> costTypes = Set.of("samples", "alloc_space", "lock_contention", "lock_wait", "park",
        "socket_read", "socket_write", "file_read", "file_write");
    try (Stream<Path> files = Files.list(profiles)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".binpb")).sorted().toList()) {
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        ProfilesDictionary d = request.getDictionary();
        for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
          String type = d.getStringTable(profile.getSampleType().getTypeStrindex());
          for (Sample sample : profile.getSamplesList()) {
            Link link = d.getLinkTable(sample.getLinkIndex());
            if (link.getTraceId().isEmpty()) {
              continue;
            }
            String endpoint = endpointOf(d, sample);
            LinkedCosts costs = all.computeIfAbsent(endpoint, e -> new LinkedCosts());
            costs.traces.add(HexFormat.of().formatHex(link.getTraceId().toByteArray()));
            if (costTypes.contains(type)) {
              withCosts.add(endpoint);
            }
            if (type.equals("samples")) {
              costs.cpuSamples += sample.getValuesList().stream().mapToLong(Long::longValue).sum();
            }
          }
        }
      }
    }
    all.keySet().retainAll(withCosts);
    return all;
  }

  /** The CPU time of {@code samples} execution samples at the demo's 20 ms, as the table writes it. */
  private static String cpuText(long samples) {
    long ms = samples * 20;
    if (samples == 0) {
      return "0 ns";
    }
    return ms >= 1000 ? String.format(Locale.ROOT, "%.2f s", ms / 1000.0) : String.format(Locale.ROOT, "%.1f ms", (double) ms);
  }

  /**
   * The page's cost table lists each endpoint with linked samples, with as many requests as it
   * has traces and as many CPU samples as the files hold; the terminal summary prints the same
   * cells for the endpoints it shows.
   */
  private static void checkCostTable(BrowserPage page, String summary, Map<String, LinkedCosts> linked) {
    List<List<String>> rows = costRows(page);
    assertThat(rows).as("cost table").hasSizeGreaterThan(1);
    List<String> header = rows.get(0);
    assertThat(header.subList(0, 5)).containsExactly("endpoint", "requests seen", "CPU samples", "CPU (est.)",
        "CPU / request (est.)");
    assertThat(rows.subList(1, rows.size())).extracting(r -> r.get(0)).as("endpoints of the cost table")
        .containsExactlyInAnyOrderElementsOf(linked.keySet());
    for (List<String> row : rows.subList(1, rows.size())) {
      LinkedCosts expected = linked.get(row.get(0));
      assertThat(row.get(1)).as("requests of " + row.get(0)).isEqualTo(Integer.toString(expected.traces.size()));
      assertThat(row.get(2)).as("CPU samples of " + row.get(0)).isEqualTo(Long.toString(expected.cpuSamples));
      assertThat(row.get(3)).as("CPU of " + row.get(0)).isEqualTo(cpuText(expected.cpuSamples));
    }
    List<String> printed = summary.lines().dropWhile(l -> !l.startsWith("What each request cost")).skip(1)
        .takeWhile(l -> l.startsWith("  ") && !l.startsWith("  Estimates")).toList();
    assertThat(printed).as("the terminal summary's cost block").hasSizeGreaterThan(1);
    for (int i = 0; i < printed.size(); i++) {
      assertThat(List.of(printed.get(i).trim().split(" {2,}"))).as("summary line " + i)
          .isEqualTo(rows.get(i).stream().map(c -> c.length() > 40 ? c.substring(0, 37) + "..." : c).toList());
    }
  }

  /** The cost table's header and rows, cell by cell. */
  @SuppressWarnings("unchecked")
  static List<List<String>> costRows(BrowserPage page) {
    return (List<List<String>>) page.evaluate("Array.from(document.querySelectorAll('#endpoint-costs tr'))"
        + ".map(tr => Array.from(tr.cells).map(c => c.textContent))");
  }

  private static String js(String value) {
    return Json.quote(value);
  }

  /**
   * The endpoint names the report should list, each with its number of CPU samples, read with
   * the generated protobuf classes.
   */
  static Map<String, Long> cpuSamplesByEndpoint(Path profiles) throws IOException {
    Map<String, Long> endpoints = new TreeMap<>();
    try (Stream<Path> files = Files.list(profiles)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".binpb")).sorted().toList()) {
        ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(Files.readAllBytes(file));
        ProfilesDictionary d = request.getDictionary();
        for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
          boolean cpu = d.getStringTable(profile.getSampleType().getTypeStrindex()).equals("samples");
          for (Sample sample : profile.getSamplesList()) {
            long count = cpu ? sample.getValuesList().stream().mapToLong(Long::longValue).sum() : 0;
            endpoints.merge(endpointOf(d, sample), count, Long::sum);
          }
        }
      }
    }
    assertThat(endpoints).as("samples in " + profiles).isNotEmpty();
    return endpoints;
  }

  private static String endpointOf(ProfilesDictionary d, Sample sample) {
    String method = "";
    String route = "";
    for (int index : sample.getAttributeIndicesList()) {
      KeyValueAndUnit attribute = d.getAttributeTable(index);
      String key = d.getStringTable(attribute.getKeyStrindex());
      AnyValue value = attribute.getValue();
      String text = value.hasStringValueStrindex() ? d.getStringTable(value.getStringValueStrindex()) : value.getStringValue();
      if (key.equals("http.request.method")) {
        method = text;
      } else if (key.equals("http.route")) {
        route = text;
      }
    }
    if (route.isEmpty()) {
      return method.isEmpty() ? NO_ENDPOINT : method + " (no route)";
    }
    return method.isEmpty() ? route : method + " " + route;
  }

  static Path clear(Path directory) throws IOException {
    if (Files.exists(directory)) {
      try (Stream<Path> files = Files.walk(directory)) {
        for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    return Files.createDirectories(directory);
  }
}
