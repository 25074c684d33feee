package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native library that spanflight.jar ships, checked by the OTEP 4947 thread record's other
 * writer: Datadog's crate {@code libdd-otel-thread-ctx} 2.0.1 ({@code sanity-check} feature,
 * {@code check_tls_slot_in}), run by our small Rust program {@code tls-check/} that
 * {@code bin/tls-check} builds with cargo. It requires {@code otel_thread_ctx_v1} to be a GLOBAL
 * TLS symbol in {@code .dynsym} with TLSDESC relocations only, which is what lets an outside reader
 * (an eBPF or native profiler) find each thread's record. Two libraries built here with gcc show the
 * check can fail: one with the symbol in the initial-exec TLS model, one without the symbol.
 *
 * <p>Without cargo on the PATH it is skipped, saying so; under {@code CI=true} it fails instead.
 */
class TlsSlotCheckSmokeTest {
  private static final String LIBRARY = "native/linux-x86_64/libspanflight.so";
  private static Path checker;

  @TempDir
  Path temp;

  @BeforeAll
  static void buildChecker() throws Exception {
    if (!onPath("cargo")) {
      String why = "cargo not found on the PATH: bin/tls-check builds the checker with Rust's cargo"
          + " (rustup; .ci/run requires it)";
      if ("true".equals(System.getenv("CI"))) {
        fail(why);
      }
      assumeTrue(false, why);
    }
    Run build = run(List.of(CollectorRoundTripSmokeTest.REPO.resolve("bin/tls-check").toString()), 10);
    assertThat(build.exit).as("bin/tls-check: " + build.output).isZero();
    checker = Path.of(build.output.strip().lines().reduce((a, b) -> b).orElseThrow());
    assertThat(checker).isExecutable();
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void theShippedLibraryPassesDatadogsCheck() throws Exception {
    Path library = temp.resolve("libspanflight.so");
    try (ZipFile jar = new ZipFile(SmokeTestBase.PATHS.requireExtensionJar().extensionJar().toFile())) {
      ZipEntry entry = jar.getEntry(LIBRARY);
      assertThat(entry).as(LIBRARY + " in spanflight.jar (built with gcc on Linux x86_64)").isNotNull();
      try (InputStream in = jar.getInputStream(entry)) {
        Files.copy(in, library);
      }
    }
    Run check = run(List.of(checker.toString(), library.toString()), 1);
    assertThat(check.exit).as(check.output).isZero();
    assertThat(check.output.strip()).isEqualTo("ok " + library);
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void anInitialExecSlotFails() throws Exception {
    Path library = gccLibrary("ie", "__attribute__((visibility(\"default\"), tls_model(\"initial-exec\")))\n"
        + "__thread void *otel_thread_ctx_v1;\nvoid *current(void) { return otel_thread_ctx_v1; }\n");
    Run check = run(List.of(checker.toString(), library.toString()), 1);
    assertThat(check.exit).as(check.output).isEqualTo(1);
    // R_X86_64_TPOFF64 is relocation type 18
    assertThat(check.output).startsWith("FAIL " + library).contains("non-TLSDESC relocations", "type 18");
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aLibraryWithoutTheSymbolFails() throws Exception {
    Path library = gccLibrary("none", "__attribute__((visibility(\"default\")))\n"
        + "__thread void *some_other_slot;\nvoid *current(void) { return some_other_slot; }\n");
    Run check = run(List.of(checker.toString(), library.toString()), 1);
    assertThat(check.exit).as(check.output).isEqualTo(1);
    assertThat(check.output).startsWith("FAIL " + library)
        .contains("'otel_thread_ctx_v1' not found as TLS GLOBAL in dynamic symbol table");
  }

  /** A shared library compiled by gcc (always there where spanflight.jar has its library) from {@code source}. */
  private Path gccLibrary(String name, String source) throws Exception {
    Path c = Files.writeString(temp.resolve(name + ".c"), source);
    Path library = temp.resolve("lib" + name + ".so");
    Run gcc = run(List.of("gcc", "-O2", "-fPIC", "-shared", "-mtls-dialect=gnu2", "-o", library.toString(),
        c.toString()), 1);
    assertThat(gcc.exit).as("gcc: " + gcc.output).isZero();
    return library;
  }

  private record Run(int exit, String output) {}

  private static Run run(List<String> command, int minutes) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish within " + minutes + " min: " + output);
    }
    return new Run(process.exitValue(), output);
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }
}
