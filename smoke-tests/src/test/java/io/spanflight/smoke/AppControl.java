package io.spanflight.smoke;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import jdk.management.jfr.FlightRecorderMXBean;

/**
 * Drives a running CoexistApp from the outside, the ways a user would: its HTTP endpoints, {@code
 * jcmd}, and JMX (through the local management agent, started by the Attach API as JConsole and
 * JDK Mission Control do): Spanflight's control MBean and JFR's {@link FlightRecorderMXBean}.
 */
final class AppControl implements AutoCloseable {
  static final String SPANFLIGHT = "io.spanflight:type=Spanflight";

  private final URI base;
  private final Path jcmd;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final long pid;
  private JMXConnector connector;

  AppControl(URI base, Path jdkHome) throws IOException, InterruptedException {
    this.base = base;
    this.jcmd = jdkHome.resolve("bin").resolve("jcmd");
    this.pid = Long.parseLong(get("/pid").trim());
  }

  long pid() {
    return pid;
  }

  /** GET of an endpoint; fails unless 200. */
  String get(String pathAndQuery) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(60)).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (response.statusCode() != 200) {
      throw new IllegalStateException(pathAndQuery + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** {@code jcmd <pid> args...}; returns its output, fails unless it exits with 0. */
  String jcmd(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    command.addAll(Arrays.asList(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(command + " failed: " + output);
    }
    return output;
  }

  MBeanServerConnection jmx() throws Exception {
    if (connector == null) {
      VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
      String address;
      try {
        address = vm.startLocalManagementAgent();
      } finally {
        vm.detach();
      }
      connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
    }
    return connector.getMBeanServerConnection();
  }

  FlightRecorderMXBean flightRecorder() throws Exception {
    return JMX.newMXBeanProxy(jmx(), new ObjectName(FlightRecorderMXBean.MXBEAN_NAME), FlightRecorderMXBean.class);
  }

  /** Invokes an operation of Spanflight's control MBean ({@code start}, {@code stop}). */
  boolean spanflight(String operation) throws Exception {
    return (Boolean) jmx().invoke(new ObjectName(SPANFLIGHT), operation, null, null);
  }

  Object spanflightAttribute(String attribute) throws Exception {
    return jmx().getAttribute(new ObjectName(SPANFLIGHT), attribute);
  }

  /** Names of the app's live threads that start with {@code prefix}. */
  List<String> threadsNamed(String prefix) throws Exception {
    ThreadMXBean threads =
        ManagementFactory.newPlatformMXBeanProxy(jmx(), ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
    List<String> names = new ArrayList<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith(prefix)) {
        names.add(info.getThreadName());
      }
    }
    return names;
  }

  int threadCount() throws Exception {
    return ManagementFactory.newPlatformMXBeanProxy(jmx(), ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class)
        .getThreadCount();
  }

  /** One spin: burns {@code millis} of CPU in the app and returns the truth about it. */
  Spin spin(String phase, long millis) throws IOException, InterruptedException {
    String[] parts = get("/spin?ms=" + millis).trim().split(" ");
    return new Spin(phase, Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
  }

  /**
   * How many samples of the spin's loop JFR took (the app's reference stream), once that count has
   * stopped growing (the stream delivers within about a second).
   */
  long referenceSamples(Spin spin) throws IOException, InterruptedException {
    String query = "/reference?from=" + (spin.startEpochNanos() - 20_000_000L) + "&to=" + (spin.endEpochNanos() + 20_000_000L);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    long last = Long.parseLong(get(query).trim());
    long stableSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(100); // poll interval
      long now = Long.parseLong(get(query).trim());
      if (now != last) {
        last = now;
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince > TimeUnit.MILLISECONDS.toNanos(2500)) {
        break; // more than two of JFR's one-second flushes without a new sample
      }
    }
    return last;
  }

  /** A recording's settings as the FlightRecorderMXBean reports them. */
  Map<String, String> settingsOf(long recordingId) throws Exception {
    return flightRecorder().getRecordingSettings(recordingId);
  }

  @Override
  public void close() throws IOException {
    if (connector != null) {
      connector.close();
    }
  }

  /** A burst of CPU of known thread CPU time, between two wall-clock instants. */
  record Spin(String phase, long cpuNanos, long startEpochNanos, long endEpochNanos) {}
}
