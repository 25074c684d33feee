package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code java -jar spanflight.jar report} as its own process on a directory of good and broken
 * files: exit status 3 (a report, but some input skipped), one line on stderr per broken input
 * naming it and what is wrong, no stack trace, and the good files in the report. Permission bits
 * do not stop root, so where the test runs as root the command runs as user {@code nobody}
 * ({@code setpriv}) for an unreadable directory and file to be unreadable.
 */
class ReportHostileInputSmokeTest extends SmokeTestBase {
  private static final int NOBODY = 65534;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void eachBrokenInputIsOneLineOnStderrAndTheGoodFilesMakeTheReport() throws Exception {
    Path work = ReportBrowserSmokeTest.clear(PATHS.buildDir().resolve("report-hostile"));
    Path profiles = Files.createDirectories(work.resolve("profiles"));
    new SyntheticProfiles(7, 20).write(profiles, 500, 2);
    List<Path> good;
    try (var files = Files.list(profiles)) {
      good = files.sorted().collect(Collectors.toList());
    }
    byte[] goodBytes = Files.readAllBytes(good.get(0));
    Map<String, byte[]> broken = new LinkedHashMap<>();
    byte[] random = new byte[10_000];
    new Random(5).nextBytes(random);
    broken.put("random.binpb", random);
    broken.put("truncated.binpb", Arrays.copyOf(goodBytes, goodBytes.length / 3));
    broken.put("length-4gb.binpb", new byte[] {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f, 1});
    broken.put("empty.binpb", new byte[0]);
    broken.put("otlp-json.binpb", "{\"resourceProfiles\": []}".getBytes(StandardCharsets.UTF_8));
    broken.put("trace-request.binpb", ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder().setName("GET /x")))).build().toByteArray());
    for (Map.Entry<String, byte[]> file : broken.entrySet()) {
      Files.write(profiles.resolve(file.getKey()), file.getValue());
    }
    Path huge = profiles.resolve("huge.binpb");
    try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength((64L << 20) + 1); // sparse
    }
    Path missing = work.resolve("missing");
    Path lockedDir = Files.createDirectories(work.resolve("locked"));
    Files.copy(good.get(0), lockedDir.resolve("a.binpb"));
    Path lockedFile = Files.copy(good.get(0), work.resolve("locked.binpb"));
    Path output = Files.createDirectories(work.resolve("out"));
    Files.setPosixFilePermissions(output, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path html = output.resolve("index.html");

    List<String> command = new ArrayList<>();
    boolean root = "root".equals(System.getProperty("user.name"));
    boolean asNobody = root && Files.isExecutable(Path.of("/usr/bin/setpriv"));
    if (asNobody) {
      command.addAll(List.of("/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
    }
    boolean permissionsApply = !root || asNobody;
    command.addAll(List.of(newestJdk().java().toString(), "-jar", PATHS.requireExtensionJar().extensionJar().toString(),
        "report", profiles.toString(), missing.toString()));
    if (permissionsApply) {
      command.addAll(List.of(lockedDir.toString(), lockedFile.toString()));
    }
    command.addAll(List.of("--out", html.toString()));
    Files.setPosixFilePermissions(lockedDir, PosixFilePermissions.fromString("---------"));
    Files.setPosixFilePermissions(lockedFile, PosixFilePermissions.fromString("---------"));
    Path stdout = work.resolve("stdout.txt");
    Path stderr = work.resolve("stderr.txt");
    int status;
    try {
      Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError("the report command hung on broken input: " + command);
      }
      status = process.exitValue();
    } finally {
      Files.setPosixFilePermissions(lockedDir, PosixFilePermissions.fromString("rwx------"));
      Files.setPosixFilePermissions(lockedFile, PosixFilePermissions.fromString("rw-------"));
    }

    String err = Files.readString(stderr);
    String out = Files.readString(stdout);
    assertThat(status).as(command + "\n" + err + out).isEqualTo(3);
    assertThat(err).doesNotContain("\tat ", "Exception in thread", "Exception:", "Error:");
    List<String> lines = err.lines().collect(Collectors.toList());
    Map<Path, String> expected = new LinkedHashMap<>();
    expected.put(profiles.resolve("random.binpb"), "not an OTLP profiles request");
    expected.put(profiles.resolve("truncated.binpb"), "not an OTLP profiles request");
    expected.put(profiles.resolve("length-4gb.binpb"), "length 4294967295 runs past the end");
    expected.put(profiles.resolve("empty.binpb"), "an empty file");
    expected.put(profiles.resolve("otlp-json.binpb"), "JSON (an OTLP/JSON .json file?)");
    expected.put(profiles.resolve("trace-request.binpb"), "not an OTLP profiles request");
    expected.put(huge, "larger than the limit of 64 MiB per file");
    expected.put(missing, "no such file or directory");
    if (permissionsApply) {
      expected.put(lockedDir, "cannot list this directory: permission denied");
      expected.put(lockedFile, "cannot read it: permission denied");
    }
    assertThat(lines).as(err).hasSize(expected.size());
    for (Map.Entry<Path, String> e : expected.entrySet()) {
      assertThat(lines).as(err).filteredOn(line -> line.contains(e.getKey() + ": "))
          .singleElement().asString().startsWith("spanflight report: ").contains(e.getValue());
    }
    assertThat(out).contains("Report: " + html, "500 samples from 2 file(s) (" + (expected.size() - 1
        - (permissionsApply ? 1 : 0)) + " skipped)");
    assertThat(html).isRegularFile();
  }
}
