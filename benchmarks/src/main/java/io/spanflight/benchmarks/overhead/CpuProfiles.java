package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The harness's {@code --profile true}: async-profiler (Maven Central, {@code
 * tools.profiler:async-profiler:4.2:linux-x64}, unpacked by {@code ./mvnw -pl benchmarks
 * dependency:unpack@async-profiler}) loaded into both JVMs of a pair for the measured window only,
 * sampling CPU ({@value #EVENT}) per thread; then the share of the JVM's CPU samples in
 * Spanflight's own work ({@link Shares#hasSpanflightFrame}: its frames and what they call in the
 * JDK, all of its own threads), per {@link ThreadGroups group of threads}. Shares of samples need no
 * quiet machine, unlike the ratios of CPU per request, so they show a change of a few tenths of a
 * percent that the ratios cannot.
 */
final class CpuProfiles {
  static final String EVENT = "event=itimer,interval=1ms";
  static final Path LIBRARY = Path.of("benchmarks/target/async-profiler/linux-x64/libasyncProfiler.so");

  private final Path library;

  CpuProfiles(Path root) {
    this.library = root.resolve(LIBRARY);
    if (!Files.isRegularFile(library)) {
      throw new IllegalStateException("--profile needs " + library
          + ": run ./mvnw -pl benchmarks dependency:unpack@async-profiler first");
    }
  }

  /** Starts sampling the JVM {@code pid} (loads the profiler into it the first time). */
  void start(long pid) throws IOException {
    agent(pid, "start," + EVENT + ",threads");
  }

  /** Stops sampling, writes the collapsed stacks to {@code file}, and reads the shares from it. */
  Shares stop(long pid, Path file) throws IOException {
    agent(pid, "stop,collapsed,file=" + file);
    return Shares.of(Files.readAllLines(file));
  }

  /**
   * Hands {@code command} to the profiler in the JVM. Quoted, or jcmd would take its {@code =} for
   * an option of its own; jcmd succeeds even where the profiler refuses, which says so in its output.
   */
  private void agent(long pid, String command) throws IOException {
    String output = Jcmd.run(pid, "JVMTI.agent_load " + library + " \"" + command + "\"");
    if (output.contains("[ERROR]")) {
      throw new IOException("async-profiler refused '" + command + "' in pid " + pid + ": " + output.strip());
    }
  }

  /**
   * CPU samples per group of threads, and how many of them have a Spanflight frame on the stack.
   *
   * @param samples per group: {total, with a Spanflight frame}
   */
  record Shares(Map<String, long[]> samples) {
    static final Shares NONE = new Shares(Map.of());

    /** From async-profiler's collapsed output with {@code threads}: {@code [name tid=N];frame;... count}. */
    static Shares of(List<String> collapsed) {
      Map<String, long[]> samples = new LinkedHashMap<>();
      ThreadGroups.GROUPS.forEach(group -> samples.put(group, new long[2]));
      for (String line : collapsed) {
        int space = line.lastIndexOf(' ');
        if (space < 0 || !line.startsWith("[")) {
          continue;
        }
        long count = Long.parseLong(line.substring(space + 1).trim());
        String stack = line.substring(0, space);
        int threadEnd = stack.indexOf(" tid=");
        String thread = threadEnd > 0 ? stack.substring(1, threadEnd) : stack.substring(1, stack.indexOf(']'));
        String groupName = ThreadGroups.group(thread);
        long[] group = samples.computeIfAbsent(groupName, g -> new long[2]);
        group[0] += count;
        if (groupName.equals("spanflight") || hasSpanflightFrame(stack)) { // its own threads: all of it
          group[1] += count;
        }
      }
      return new Shares(samples);
    }

    /**
     * Whether the sample is in Spanflight's own work: walking from the leaf towards the thread's
     * root, a Spanflight frame comes before any frame of the application's or another agent's code
     * (JDK and native frames may come first: what Spanflight calls). Inclusive counting would blame
     * Spanflight for all the work under a task wrapper of its own.
     */
    static boolean hasSpanflightFrame(String stack) {
      String[] frames = stack.split(";");
      for (int i = frames.length - 1; i >= 1; i--) { // frames[0] is the thread
        String name = frames[i].replace('/', '.');
        if (isSpanflight(name)) {
          return true;
        }
        if (!isRuntime(name)) {
          return false;
        }
      }
      return false;
    }

    /** Spanflight's Java packages (not the demo service's) or its native library's functions. */
    private static boolean isSpanflight(String frame) {
      return (frame.startsWith("io.spanflight.") && !frame.startsWith("io.spanflight.demo."))
          || frame.startsWith("sf_") || frame.contains("libspanflight");
    }

    /** The JDK's classes, and native or VM frames (no package). */
    private static boolean isRuntime(String frame) {
      return frame.startsWith("java.") || frame.startsWith("jdk.") || frame.startsWith("sun.")
          || frame.startsWith("com.sun.") || frame.startsWith("[") || !frame.contains(".")
          || frame.contains("::");
    }

    long total() {
      return samples.values().stream().mapToLong(s -> s[0]).sum();
    }

    long spanflight() {
      return samples.values().stream().mapToLong(s -> s[1]).sum();
    }

    /** "Spanflight frames 1.23 % of 51234 CPU samples (application 0.80, spanflight 0.30, ...)". */
    String describe() {
      long total = total();
      if (total == 0) {
        return "no CPU samples";
      }
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Spanflight frames %.2f %% of %d CPU samples (",
          100.0 * spanflight() / total, total));
      String separator = "";
      for (Map.Entry<String, long[]> group : samples.entrySet()) {
        if (group.getValue()[1] > 0) {
          s.append(separator).append(String.format(Locale.ROOT, "%s %.2f", group.getKey(),
              100.0 * group.getValue()[1] / total));
          separator = ", ";
        }
      }
      return s.append(")").toString();
    }
  }
}
