package io.spanflight.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: arguments, errors that name what is wrong, and a self-contained page. */
class ReportCommandTest {
  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void writesOneSelfContainedPageAndSkipsBrokenFilesByName() throws Exception {
    Path profiles = Files.createDirectory(dir.resolve("profiles"));
    RequestFixture f = new RequestFixture("shop");
    f.cpu(f.stack("app.Checkout.burn<init>", "app.Main.main"), f.link("0102030405060708090a0b0c0d0e0f10", "1112131415161718"), 3,
        f.endpoint("GET", "/checkout"));
    Files.write(profiles.resolve("spanflight-1-1-1.binpb"), f.build().toByteArray());
    Files.write(profiles.resolve("spanflight-1-1-2.binpb"), new byte[] {0x0a, 0x7f, 1});
    Files.write(profiles.resolve(".spanflight-1-1-3.binpb.tmp"), new byte[] {1});
    Path html = dir.resolve("out/report.html");

    int status = run(profiles.toString(), "--out", html.toString());

    assertThat(status).as(stderr()).isEqualTo(ReportCommand.PARTIAL);
    assertThat(stderr()).contains("skipping " + profiles.resolve("spanflight-1-1-2.binpb"), "not an OTLP profiles request");
    assertThat(stdout()).contains("Report: " + html, "1 samples from 1 file(s) (1 skipped)", "GET /checkout",
        "60.0 ms  app.Checkout.burn<init>");
    String page = Files.readString(html);
    assertThat(page).contains("<script type=\"application/json\" id=\"spanflight-data\">", "GET /checkout",
        "app.Checkout.burn\\u003cinit\\u003e", "0102030405060708090a0b0c0d0e0f10", "function renderFlame");
    assertThat(page).as("nothing loaded from elsewhere")
        .doesNotContain("<script src", "<link", "@import", "url(", "http://", "https://");
    assertThat(page).doesNotContain("/*JS*/", "/*CSS*/", "<!--DATA-->");
  }

  @Test
  void namesAMissingOrEmptyDirectory() throws Exception {
    assertThat(run(dir.resolve("nope").toString())).isEqualTo(1);
    assertThat(stderr()).contains(dir.resolve("nope") + ": no such file or directory");

    err.reset();
    assertThat(run(dir.toString())).isEqualTo(1);
    assertThat(stderr()).contains(dir + ": no .binpb files here");
  }

  @Test
  void printsProgressWhenReadingManyFiles() throws Exception {
    for (int i = 0; i < ReportInputs.MANY_FILES; i++) {
      RequestFixture f = new RequestFixture("shop");
      f.cpu(f.stack("app.M.m" + i), 0, 1);
      Files.write(dir.resolve(String.format("spanflight-%03d.binpb", i)), f.build().toByteArray());
    }
    assertThat(run(dir.toString(), "--out", dir.resolve("r.html").toString())).isZero();
    assertThat(stderr()).contains("read " + ReportInputs.MANY_FILES + " of " + ReportInputs.MANY_FILES + " files");
  }

  @Test
  void refusesBadArguments() {
    assertThat(run()).isEqualTo(2);
    assertThat(run("--max-files", "0", "a")).isEqualTo(2);
    assertThat(run("--max-file-mb=x", "a")).isEqualTo(2);
    assertThat(run("a", "--out")).isEqualTo(2);
    assertThat(run("--frobnicate", "a")).isEqualTo(2);
    assertThat(stderr()).contains(ReportCommand.USAGE, "unknown option --frobnicate",
        "--max-files needs a whole number from 1 to", "--max-file-mb needs a whole number");
  }

  private int run(String... args) {
    return ReportCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
