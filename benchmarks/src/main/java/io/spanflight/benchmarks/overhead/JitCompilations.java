package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;

/**
 * The harness's {@code --jit true}: what the JIT compilers spent their time on in each JVM, by whose
 * code the compiled method is (Spanflight's, the OpenTelemetry agent's, the JDK's or the
 * application's, the demo service's included) and by compiler, from JFR's {@code jdk.Compilation} events (every compilation, no
 * threshold) of a recording of the harness's own in both JVMs of a pair. Split at the start of the
 * measured window: the start and warm-up, then the window. JDK methods that only Spanflight's code
 * makes hot count as the JDK's: the difference between the two arms is what the arm adds.
 */
final class JitCompilations extends WindowRecording {
  private static final String JFC = """
      <?xml version="1.0" encoding="UTF-8"?>
      <configuration version="2.0" label="harness JIT">
        <event name="jdk.Compilation">
          <setting name="enabled">true</setting>
          <setting name="threshold">0 ms</setting>
        </event>
      </configuration>
      """;

  JitCompilations(Path logs) {
    super("spanflight-harness-jit", JFC, logs);
  }

  @Override
  String describe(long pid, Path file, Instant windowStart, Instant windowEnd, long requests) throws IOException {
    return dump(pid, file, windowStart).describe();
  }

  /** Dumps the JVM's compilations to {@code file} and sums them, split at {@code windowStart}. */
  Summary dump(long pid, Path file, Instant windowStart) throws IOException {
    Summary summary = new Summary(new TreeMap<>(), new TreeMap<>());
    for (RecordedEvent event : events(pid, file)) {
      if (event.getEventType().getName().equals("jdk.Compilation")) {
        Map<String, Long> part = event.getStartTime().isBefore(windowStart) ? summary.beforeWindow : summary.inWindow;
        long nanos = event.getDuration().toNanos();
        part.merge(originOf(event.getValue("method")), nanos, Long::sum);
        part.merge(event.getInt("compileLevel") == 4 ? "C2" : "C1", nanos, Long::sum);
        part.merge("all", nanos, Long::sum);
      }
    }
    return summary;
  }

  static String originOf(RecordedMethod method) {
    String type = method == null || method.getType() == null ? "" : method.getType().getName();
    if (type.startsWith("io.spanflight.") && !type.startsWith("io.spanflight.demo.")) {
      return "spanflight";
    }
    if (type.startsWith("io.opentelemetry.")) {
      return "agent";
    }
    if (type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.")
        || type.startsWith("sun.") || type.startsWith("com.sun.")) {
      return "jdk";
    }
    return "application";
  }

  /** Compilation time in nanoseconds by origin, by compiler (C1, C2) and in all, before and in the window. */
  record Summary(Map<String, Long> beforeWindow, Map<String, Long> inWindow) {
    String describe() {
      return "JIT ms, start and warm-up " + format(beforeWindow) + "; measured window " + format(inWindow);
    }

    private static String format(Map<String, Long> part) {
      StringBuilder out = new StringBuilder();
      for (String key : List.of("all", "C2", "C1", "spanflight", "agent", "jdk", "application")) {
        out.append(out.isEmpty() ? "" : " ").append(key).append(' ')
            .append(String.format(Locale.ROOT, "%.0f", part.getOrDefault(key, 0L) / 1e6));
      }
      return out.toString();
    }
  }
}
