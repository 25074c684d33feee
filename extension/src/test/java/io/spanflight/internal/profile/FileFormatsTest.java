package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.config.SpanflightConfig.FileFormat;
import io.spanflight.internal.export.FileProfileExporter;
import io.spanflight.internal.format.Hex;
import io.spanflight.internal.registry.ContextRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes one interval of real JFR samples in every file format and reads the files back with
 * independent readers: Datadog's {@code pprof-format} (Node.js) for pprof, {@code JSON.parse} for
 * OTLP/JSON compared with the binary request as the official generated classes parse it.
 */
class FileFormatsTest {
  private static final long PERIOD_NANOS = Duration.ofMillis(10).toNanos();
  private static final String TRACE_A = "0af7651916cd43dd8448eb211c80319c";
  private static final String SPAN_A = "b7ad6b7169203331";
  private static List<JfrTestSamples.Sample> samples;

  @TempDir static Path dir;

  @BeforeAll
  static void recordSamples() throws Exception {
    samples = JfrTestSamples.record(dir);
  }


  /**
   * Every other sample inside span A, every fourth in a span whose request has the route
   * {@code /checkout}; allocation values 1000 + i.
   */
  private static ProfileInterval interval() {
    ContextRecord a = JfrTestSamples.span(TRACE_A, SPAN_A);
    ContextRecord checkout = JfrTestSamples.spanWithRoute("/checkout", true);
    ProfileInterval interval = new ProfileInterval(EpochClock.nowNanos() - 1_000_000_000L);
    for (int i = 0; i < samples.size(); i++) {
      JfrTestSamples.Sample e = samples.get(i);
      long ts = e.epochNanos();
      ContextRecord link = i % 2 == 0 ? a : (i % 4 == 1 ? checkout : null);
      interval.add(SampleType.cpuSamples(PERIOD_NANOS), e.stacks(), -1, e.stack(), link, ts, 1);
      interval.add(SampleType.allocatedBytes(), e.stacks(), -1, e.stack(), link, ts, 1000 + i);
    }
    return interval;
  }

  private static List<Path> write(Path out, ProfileInterval interval, long end, byte[] request) {
    Resource resource = Resource.create(Attributes.builder().put("service.name", "file-test").build());
    FileProfileExporter exporter =
        new FileProfileExporter(
            out, EnumSet.allOf(FileFormat.class), new ExportRequestEncoder(resource, "test").json());
    assertThat(exporter.export(request, interval, end).isSuccess()).isTrue();
    try (Stream<Path> files = Files.list(out)) {
      return files.sorted().collect(Collectors.toList());
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void writesEveryFormatWholeIntoAnOwnerOnlyDirectory() throws Exception {
    Path out = dir.resolve("formats").resolve("profiles");
    ProfileInterval interval = interval();
    List<Path> files = write(out, interval, EpochClock.nowNanos(), new byte[] {1, 2, 3});

    assertThat(files)
        .extracting(f -> f.getFileName().toString().replaceAll("^spanflight-\\d+-\\d+-\\d+", "X"))
        .containsExactly("X-alloc_space.pb.gz", "X-samples.pb.gz", "X.binpb", "X.json");
    assertThat(Files.readAllBytes(files.get(2))).containsExactly(1, 2, 3);
    if (out.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rwx------");
    }
  }

  @Test
  void pprofFilesDecodeWithAnIndependentReader() throws Exception {
    NodeScripts.requireReader();
    ProfileInterval interval = interval();
    long end = EpochClock.nowNanos();
    List<Path> files = write(dir.resolve("pprof"), interval, end, new byte[0]);
    Path cpu = files.stream().filter(f -> f.toString().endsWith("-samples.pb.gz")).findFirst().orElseThrow();
    Path alloc = files.stream().filter(f -> f.toString().endsWith("-alloc_space.pb.gz")).findFirst().orElseThrow();

    List<String> cpuLines = NodeScripts.run("read-pprof.cjs", cpu);
    assertThat(cpuLines).noneMatch(l -> l.startsWith("error"));
    assertThat(cpuLines.get(0))
        .startsWith("profile types=samples/count periodType=cpu/nanoseconds period=" + PERIOD_NANOS + " time=")
        .endsWith(" mappings=0");
    List<String> cpuSamples = cpuLines.subList(1, cpuLines.size());
    assertThat(sumOfValues(cpuSamples)).isEqualTo(samples.size());
    long linked = cpuSamples.stream()
        .filter(l -> l.contains(" labels=trace_id=" + TRACE_A + ",span_id=" + SPAN_A + " "))
        .mapToLong(FileFormatsTest::value)
        .sum();
    assertThat(linked).isEqualTo((samples.size() + 1) / 2);
    long withRoute = cpuSamples.stream()
        .filter(l -> l.contains(",http.route=/checkout,http.request.method=GET "))
        .mapToLong(FileFormatsTest::value)
        .sum();
    assertThat(withRoute).as("context attributes as labels").isEqualTo((samples.size() + 2) / 4);
    assertThat(cpuSamples).allMatch(l -> l.contains(" labels= ") || l.contains(" labels=trace_id="));
    // Leaf first: the burn loop is the leaf of (nearly) every sample, its caller follows.
    assertThat(cpuSamples)
        .anyMatch(
            l -> l.contains(" stack=" + JfrTestSamples.BURN_FUNCTION + "|" + JfrTestSamples.BURN_FUNCTION + "(J)J|JfrTestSamples.java|"));

    List<String> allocLines = NodeScripts.run("read-pprof.cjs", alloc);
    assertThat(allocLines).noneMatch(l -> l.startsWith("error"));
    assertThat(allocLines.get(0)).startsWith("profile types=alloc_space/bytes periodType=- period=0 time=");
    long expected = 0;
    for (int i = 0; i < samples.size(); i++) {
      expected += 1000 + i;
    }
    assertThat(sumOfValues(allocLines.subList(1, allocLines.size()))).isEqualTo(expected);
  }

  @Test
  void otlpJsonMatchesTheBinaryRequest() throws Exception {
    NodeScripts.requireReader();
    ProfileInterval interval = interval();
    long end = EpochClock.nowNanos();
    Resource resource = Resource.create(Attributes.builder().put("service.name", "file-test").build());
    byte[] binary = new ExportRequestEncoder(resource, "test").encode(interval, end);
    ExportProfilesServiceRequest request = ExportProfilesServiceRequest.parseFrom(binary);
    List<Path> files = write(dir.resolve("json"), interval, end, binary);
    Path json = files.stream().filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();

    List<String> lines = NodeScripts.run("read-otlp-json.cjs", json);

    ProfilesDictionary d = request.getDictionary();
    List<String> expected = new ArrayList<>();
    expected.add("tables strings=" + d.getStringTableCount() + " functions=" + d.getFunctionTableCount()
        + " locations=" + d.getLocationTableCount() + " stacks=" + d.getStackTableCount()
        + " links=" + d.getLinkTableCount());
    for (int i = 1; i < d.getLinkTableCount(); i++) {
      expected.add("link " + Hex.of(d.getLinkTable(i).getTraceId().toByteArray()) + " "
          + Hex.of(d.getLinkTable(i).getSpanId().toByteArray()));
    }
    assertThat(expected).contains("link " + TRACE_A + " " + SPAN_A);
    expected.add("service file-test");
    for (Profile p : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
      long count = p.getSamplesList().stream().mapToLong(s -> s.getValuesCount()).sum();
      long sum = p.getSamplesList().stream().flatMap(s -> s.getValuesList().stream()).mapToLong(Long::longValue).sum();
      java.util.TreeSet<String> attributes = new java.util.TreeSet<>();
      p.getSamplesList().forEach(s -> s.getAttributeIndicesList().forEach(i -> attributes.add(
          d.getStringTable(d.getAttributeTable(i).getKeyStrindex()) + "=" + d.getAttributeTable(i).getValue().getStringValue())));
      assertThat(attributes).contains("http.route=/checkout");
      expected.add("profile type=" + d.getStringTable(p.getSampleType().getTypeStrindex()) + " samples=" + count
          + " sum=" + sum + " time=" + p.getTimeUnixNano() + " firstStack=" + p.getSamples(0).getStackIndex()
          + " attributes=" + String.join(",", attributes));
    }
    assertThat(lines).containsExactlyElementsOf(expected);
  }

  private static long sumOfValues(List<String> sampleLines) {
    return sampleLines.stream().mapToLong(FileFormatsTest::value).sum();
  }

  private static long value(String sampleLine) {
    String values = sampleLine.substring("sample values=".length(), sampleLine.indexOf(' ', "sample values=".length()));
    return Long.parseLong(values);
  }
}
