package io.spanflight.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broken and hostile input to the report command (see {@link HostileFiles}): each bad input is
 * one line on stderr naming it and what is wrong, never a stack trace; the good files still make
 * the report and the exit status says some input was skipped. The timeout only detects a hang.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ReportHostileInputTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void eachBrokenFileIsOneLineNamingItAndTheGoodFileStillMakesTheReport() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("profiles"));
    Files.write(profiles.resolve("good.binpb"), HostileFiles.good());
    Map<String, HostileFiles.Case> cases = HostileFiles.all();
    for (Map.Entry<String, HostileFiles.Case> c : cases.entrySet()) {
      Files.write(profiles.resolve(c.getKey()), c.getValue().bytes);
    }
    Path html = dir.resolve("report.html");

    int status = run(ReportLimits.DEFAULT, profiles.toString(), "--out", html.toString());

    assertThat(status).as(stderr()).isEqualTo(ReportCommand.PARTIAL);
    List<String> lines = stderr().lines().collect(Collectors.toList());
    assertThat(lines).as(stderr()).hasSize(cases.size());
    for (Map.Entry<String, HostileFiles.Case> c : cases.entrySet()) {
      String prefix = "spanflight report: skipping " + profiles.resolve(c.getKey()) + ": ";
      assertThat(lines).as(c.getKey()).filteredOn(line -> line.startsWith(prefix)).singleElement().asString()
          .contains(c.getValue().expected);
    }
    assertNoStackTrace();
    assertThat(stdout()).contains("1 samples from 1 file(s) (" + cases.size() + " skipped)", "GET /checkout");
    assertThat(Files.readString(html)).contains("app.Checkout.burn");
  }

  @Test
  void theDecoderRefusesEachWithItsOwnException() throws Exception {
    for (Map.Entry<String, HostileFiles.Case> c : HostileFiles.all().entrySet()) {
      assertThatThrownBy(() -> RequestDecoder.decode(c.getValue().bytes)).as(c.getKey())
          .isInstanceOf(MalformedProfileException.class);
    }
  }

  @Test
  void aStackBombJustInsideTheBudgetIsRead() throws Exception {
    // 1000 lines x 900 repeats = 900 000 frames, under the 1 000 000 every file may expand to
    ProfilesRequest request = RequestDecoder.decode(HostileFiles.stackBomb(1000, 900));
    assertThat(request.dictionary.stacks[0]).hasSize(900);
  }

  @Test
  void skipsAFileThatCouldGrowTheCallTreePastItsLimit() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("tree"));
    for (String name : List.of("a", "b")) {
      RequestFixture f = new RequestFixture("shop");
      f.cpu(f.stack("app." + name + ".leaf", "app." + name + ".middle", "app." + name + ".root"), 0, 1);
      Files.write(profiles.resolve(name + ".binpb"), f.build().toByteArray());
    }
    Path html = dir.resolve("report.html");

    // the root and a's 3 frames make 4 nodes; b's 3 more would make 7
    int status = run(new ReportLimits(10, 1 << 20, 5), profiles.toString(), "--out", html.toString());

    assertThat(status).as(stderr()).isEqualTo(ReportCommand.PARTIAL);
    assertThat(stderr()).isEqualTo("spanflight report: skipping " + profiles.resolve("b.binpb")
        + ": its stacks could take the report's call tree past the limit of 5 nodes (distinct call paths);"
        + " report fewer files at a time" + System.lineSeparator());
    assertThat(Files.readString(html)).contains("app.a.leaf").doesNotContain("app.b.leaf");
  }

  @Test
  void readsTheFirstFilesByNameUpToTheLimitAndSaysWhatItLeftOut() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("many"));
    int files = 3000;
    for (int i = files - 1; i >= 0; i--) {
      RequestFixture f = new RequestFixture("shop");
      f.cpu(f.stack(String.format("app.M.m%04d", i)), 0, 1);
      Files.write(profiles.resolve(String.format("spanflight-%04d.binpb", i)), f.build().toByteArray());
    }
    Path html = dir.resolve("report.html");

    int status = run(new ReportLimits(100, ReportLimits.DEFAULT_MAX_FILE_BYTES), profiles.toString(),
        "--out", html.toString());

    assertThat(status).as(stderr()).isEqualTo(ReportCommand.PARTIAL);
    assertThat(stderr()).contains(profiles + ": holds 3000 .binpb files, more than the limit of 100 files:"
        + " reading the first 100 by name, leaving out 2900 (--max-files raises the limit)");
    assertThat(stdout()).contains("100 samples from 100 file(s)");
    assertThat(Files.readString(html)).contains("app.M.m0000", "app.M.m0099").doesNotContain("app.M.m0100");
    assertNoStackTrace();

    out.reset();
    err.reset();
    Path named = profiles.resolve("spanflight-2999.binpb");
    assertThat(run(ReportLimits.DEFAULT, "--max-files", "1", named.toString(), profiles.toString(),
        "--out", html.toString())).isEqualTo(ReportCommand.PARTIAL);
    assertThat(stderr()).contains(profiles + ": left out: 1 files were read already");
    assertThat(Files.readString(html)).contains("app.M.m2999").doesNotContain("app.M.m0000");
  }

  @Test
  void refusesAFileLargerThanTheLimitWithoutReadingIt() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("large"));
    Files.write(profiles.resolve("good.binpb"), HostileFiles.good());
    Path huge = profiles.resolve("huge.binpb");
    try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength(ReportLimits.DEFAULT_MAX_FILE_BYTES + 1); // sparse: no disk, no time
    }
    Path html = dir.resolve("report.html");

    assertThat(run(ReportLimits.DEFAULT, profiles.toString(), "--out", html.toString()))
        .as(stderr()).isEqualTo(ReportCommand.PARTIAL);
    assertThat(stderr()).isEqualTo("spanflight report: skipping " + huge
        + ": larger than the limit of 64 MiB per file (--max-file-mb raises it)" + System.lineSeparator());
    assertThat(stdout()).contains("1 samples from 1 file(s) (1 skipped)");

    err.reset();
    Files.write(huge, new byte[2000]);
    assertThat(run(new ReportLimits(10, 1000), huge.toString(), "--out", html.toString())).isEqualTo(1);
    assertThat(stderr()).contains("skipping " + huge + ": larger than the limit of 1000 bytes per file",
        "none of the 1 files could be read; no report written");
  }

  @Test
  void namesWhatCannotBeListedOrRead() throws Exception {
    Path good = Files.write(dir.resolve("good.binpb"), HostileFiles.good());
    Path html = dir.resolve("report.html");

    int status = run(ReportLimits.DEFAULT, good.toString(), dir.resolve("missing").toString(), "/dev/null",
        "--out", html.toString());

    assertThat(status).isEqualTo(ReportCommand.PARTIAL);
    assertThat(stderr()).contains(dir.resolve("missing") + ": no such file or directory",
        "/dev/null: not a regular file or directory");
    assertThat(stdout()).contains("1 samples from 1 file(s)");
  }

  @Test
  void printsAFileNameWithControlCharactersOnOneLine() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("names"));
    Files.write(profiles.resolve("good.binpb"), HostileFiles.good());
    Path bad = Files.write(profiles.resolve("bad\nspanflight report: all fine\u001b[2J.binpb"), new byte[] {1});

    assertThat(run(ReportLimits.DEFAULT, profiles.toString(), "--out", dir.resolve("r.html").toString()))
        .isEqualTo(ReportCommand.PARTIAL);

    assertThat(stderr().lines()).singleElement().asString()
        .startsWith("spanflight report: skipping " + profiles + Paths.get("/").toString()
            + "bad?spanflight report: all fine?[2J.binpb: ");
    assertThat(bad).exists();
  }

  private void assertNoStackTrace() {
    assertThat(stderr()).doesNotContain("\tat ", "Exception:", "Error:");
  }

  private int run(ReportLimits limits, String... args) {
    return ReportCommand.run(args, limits, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
