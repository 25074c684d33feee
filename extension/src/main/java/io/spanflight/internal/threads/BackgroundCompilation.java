package io.spanflight.internal.threads;

import io.spanflight.internal.bridge.PrivateDirectory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Keeps the JIT's optimising compiler (C2) off the code that only Spanflight's own threads run:
 * the JFR chunk reader, the join, the profile encoder and the exporters. Those methods become hot
 * within seconds of a start, and C2 compiled them at length (a saturated demo service: about 2.5 s
 * of compile time in its first 20 s, the chunk reader's event loop alone 0.2-0.5 s), CPU that a
 * service starting under load takes from its requests. With a compiler directive they are compiled
 * by C1 only (tier 1, no profiling): a fraction of the compile time, for code that runs on
 * Spanflight's threads about 0.5 % of the time.
 *
 * <p>The code on the application's threads (capture, registry, bridge, span processors) is left
 * as it is: C2 inlines it into the application's methods, which it could not do with methods it
 * may not compile.
 *
 * <p>The directive goes in through the JVM's {@code DiagnosticCommand} MBean ({@code
 * Compiler.directives_add}), which reads it from a file: written in a fresh {@link
 * PrivateDirectory}, deleted after. Once per JVM; where it cannot be added, the JVM compiles as
 * usual and the outcome says why.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class BackgroundCompilation {
  /** Packages whose code runs on Spanflight's threads only. */
  static final List<String> BACKGROUND_PACKAGES = List.of(
      "io/spanflight/internal/jfr/",
      "io/spanflight/internal/correlate/",
      "io/spanflight/internal/profile/",
      "io/spanflight/internal/filter/",
      "io/spanflight/internal/export/",
      "io/spanflight/internal/tables/", // the reader's and the profile's collections (profile-format)
      "io/spanflight/internal/format/", // the protobuf and JSON writers (profile-format)
      "io/spanflight/internal/opamp/", // fleet control's client, on its own thread
      // span costs and inferred spans: the JFR consumer adds, the ticking thread and the SDK's
      // export thread hold and annotate (measured on the demo: C2 compiling the hold was the
      // larger part of what span costs added, 2026-12-07)
      "io/spanflight/internal/costs/");

  private static String outcome;

  private BackgroundCompilation() {}

  /** The directive: the background packages' methods, not compiled by C2. */
  static String directive() {
    StringBuilder match = new StringBuilder();
    for (String pkg : BACKGROUND_PACKAGES) {
      match.append(match.length() == 0 ? "" : ", ").append('"').append(pkg).append("*.*\"");
    }
    return "[{ match: [" + match + "], c2: { Exclude: true } }]\n";
  }

  /**
   * Adds the directive once per JVM; returns the outcome for the startup line.
   *
   * @param directory the configured root of private directories, null for {@code java.io.tmpdir}
   */
  public static synchronized String applyOnce(Path directory) {
    if (outcome == null) {
      outcome = apply(directory);
    }
    return outcome;
  }

  private static String apply(Path directory) {
    Path file = null;
    try {
      file = PrivateDirectory.create(directory).write("spanflight-directives.json",
          directive().getBytes(StandardCharsets.US_ASCII));
      Object added = ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
          new Object[] {new String[] {file.toString()}}, new String[] {String[].class.getName()});
      String answer = String.valueOf(added).strip();
      return answer.startsWith("1 compiler directives added")
          ? "background code compiled by C1 only"
          : "background code compiled as usual (the JVM answered: " + firstLine(answer) + ")";
    } catch (IOException | JMException | RuntimeException e) {
      return "background code compiled as usual (" + e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()) + ")";
    } finally {
      deleteQuietly(file);
    }
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int end = text.indexOf('\n');
    String line = end < 0 ? text : text.substring(0, end);
    return line.length() > 200 ? line.substring(0, 200) : line;
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // the private directory is removed at exit
      }
    }
  }
}
