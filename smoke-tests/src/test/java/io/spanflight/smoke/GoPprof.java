package io.spanflight.smoke;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code go tool pprof}, the reader that ships with Go, run on one pprof file: its {@code -top},
 * {@code -tags} and {@code -raw} output, and from {@code -raw} the sample type, the total and the
 * totals per label value, exactly (the other views round). Go is on the PATH wherever the smoke
 * tests build the Collector; without it the caller is skipped, and under {@code CI=true} fails.
 */
final class GoPprof {
  /** A sample line of {@code -raw}: its value (one sample type), then its location ids. */
  private static final Pattern SAMPLE = Pattern.compile("^\\s*(-?\\d+):");
  /** The labels line after a sample: {@code key:[value]} pairs. */
  private static final Pattern LABEL = Pattern.compile("(\\S+):\\[([^\\]]*)\\]");

  /** What {@code -raw} says about a file's samples. */
  record Raw(String sampleType, long total, Map<String, Map<String, Long>> totalsByLabel, String text) {}

  private GoPprof() {}

  /** Skips (or under CI=true fails) the test when {@code go} is not on the PATH. */
  static void requireGo() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
        return;
      }
    }
    String why = "go not found on the PATH: go tool pprof reads the pprof files (Go >= 1.26, as bin/collector needs)";
    if ("true".equals(System.getenv("CI"))) {
      fail(why);
    }
    assumeTrue(false, why);
  }

  /** The standard output of {@code go tool pprof <view> file}, after checking that it exited with 0. */
  static String run(String view, Path file) throws Exception {
    List<String> command = new ArrayList<>(List.of("go", "tool", "pprof", view, file.toString()));
    Path out = Files.createTempFile("go-pprof", ".txt");
    Path err = Files.createTempFile("go-pprof", ".err");
    try {
      Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " did not finish within 2 minutes");
      }
      String text = Files.readString(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new AssertionError(String.join(" ", command) + " exited " + process.exitValue() + ": "
            + Files.readString(err, StandardCharsets.UTF_8) + text);
      }
      return text;
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** {@code -raw}, summed: the file's one sample type ({@code type/unit}), its total and its totals per label. */
  static Raw raw(Path file) throws Exception {
    String text = run("-raw", file);
    int samples = text.indexOf("\nSamples:\n");
    int locations = text.indexOf("\nLocations\n");
    if (samples < 0 || locations < samples) {
      throw new AssertionError("go tool pprof -raw printed no samples section for " + file + ":\n" + text);
    }
    List<String> lines = text.substring(samples + "\nSamples:\n".length(), locations).lines().toList();
    String type = lines.isEmpty() ? "" : lines.get(0).strip();
    long total = 0;
    long last = 0;
    Map<String, Map<String, Long>> byLabel = new TreeMap<>();
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      Matcher sample = SAMPLE.matcher(line);
      if (sample.find()) {
        last = Long.parseLong(sample.group(1));
        total += last;
        continue;
      }
      Matcher label = LABEL.matcher(line);
      while (label.find()) {
        byLabel.computeIfAbsent(label.group(1), k -> new LinkedHashMap<>()).merge(label.group(2), last, Long::sum);
      }
    }
    return new Raw(type, total, byLabel, text);
  }
}
