package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.smoke.collector.OtlpCollector;
import io.spanflight.smoke.harness.AppJvm;
import io.spanflight.smoke.harness.Jdk;
import io.spanflight.smoke.harness.LoadDriver;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader that is not ours parses what we send: the body of a profiles request exactly as the
 * agent posted it over http/protobuf is decoded by {@code protoc --decode} (Debian
 * {@code protobuf-compiler}; .ci/run installs it) with the .proto files of opentelemetry-proto
 * 1.11.0. Skipped, saying so, where protoc is not installed.
 */
class ProtocDecodeSmokeTest extends SmokeTestBase {
  private static final String MESSAGE =
      "opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest";
  private static final String SERVICE_PROTO =
      "opentelemetry/proto/collector/profiles/v1development/profiles_service.proto";
  private static final List<String> PROTOS = List.of(
      SERVICE_PROTO,
      "opentelemetry/proto/profiles/v1development/profiles.proto",
      "opentelemetry/proto/common/v1/common.proto",
      "opentelemetry/proto/resource/v1/resource.proto");

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void protocDecodesAnExportedRequest(@TempDir Path dir) throws Exception {
    Path protoc = protocOnPath();
    assumeTrue(protoc != null, "protoc not found on PATH: install Debian's protobuf-compiler"
        + " (apt-get install -y protobuf-compiler; .ci/run does) to run the protoc --decode check");
    for (String proto : PROTOS) {
      extract(proto, dir);
    }
    byte[] body;
    String cpuType;
    try (OtlpCollector collector = OtlpCollector.start()) {
      Jdk jdk = newestJdk();
      // the CPU profile's sample type at the defaults: the CPU-time sampler's on JDK 25+, else the execution sampler's
      cpuType = jdk.feature() >= 25 ? "\"cpu\"" : "\"samples\"";
      AppJvm app = app(jdk, collector, "protoc-decode")
          .systemProperty("otel.exporter.otlp.profiles.protocol", "http/protobuf")
          .systemProperty("otel.exporter.otlp.profiles.endpoint",
              collector.httpEndpoint() + OtlpCollector.HTTP_PROFILES_PATH)
          .start();
      try (app) {
        new LoadDriver(app.baseUri()).send("/burn?ms=20", 20, 2);
        assertThat(collector.await(c -> withCpuSamples(c).isPresent(), Duration.ofSeconds(30)))
            .as(withLog(app, "a profiles request with CPU samples over HTTP; " + received(collector))).isTrue();
      }
      body = withCpuSamples(collector).orElseThrow();
    }
    Path request = Files.write(dir.resolve("request.binpb"), body);
    Path decoded = dir.resolve("decoded.txt");
    Process process = new ProcessBuilder(protoc.toString(), "--decode=" + MESSAGE, "-I", dir.toString(),
        dir.resolve(SERVICE_PROTO).toString())
        .redirectInput(request.toFile())
        .redirectOutput(decoded.toFile())
        .redirectErrorStream(false)
        .start();
    String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("protoc finished").isTrue();
    String text = Files.readString(decoded);

    assertThat(process.exitValue()).as("protoc exit code; stderr: " + errors).isZero();
    assertThat(text).contains("resource_profiles {", "dictionary {", "key: \"service.name\"",
        "string_value: \"protoc-decode\"", "\"profile.frame.type\"", cpuType);
    // and it read the same request the generated classes read
    assertThat(ExportProfilesServiceRequest.parseFrom(body).getDictionary().getStringTableCount())
        .isEqualTo(Stream.of(text.split("\n")).filter(l -> l.trim().startsWith("string_table:")).count());
  }

  private static Path protocOnPath() {
    for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(directory, "protoc");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static void extract(String proto, Path dir) throws IOException {
    URL resource = ExportProfilesServiceRequest.class.getClassLoader().getResource(proto);
    assertThat(resource).as(proto + " in the opentelemetry-proto jar").isNotNull();
    Path target = dir.resolve(proto);
    Files.createDirectories(target.getParent());
    try (InputStream in = resource.openStream()) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** The first request received over HTTP that holds CPU samples (the first ones may hold others only). */
  private static java.util.Optional<byte[]> withCpuSamples(OtlpCollector collector) {
    return collector.httpProfileBodies().stream().filter(body -> {
      try {
        return !io.spanflight.smoke.profiles.CpuSamples.decode(ExportProfilesServiceRequest.parseFrom(body)).isEmpty();
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        return false;
      }
    }).findFirst();
  }
}
