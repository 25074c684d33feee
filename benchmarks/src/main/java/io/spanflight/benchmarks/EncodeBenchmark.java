package io.spanflight.benchmarks;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ExportRequestEncoder;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.profile.ProfileInterval;
import io.spanflight.internal.profile.SampleType;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
import io.spanflight.internal.registry.UserEntries;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding one export interval of 20 000 CPU samples over 2 000 distinct stacks (depth 40 over
 * 500 functions) and 200 spans: time and allocation per request ({@code -prof gc}); the gzipped
 * size is printed once. The interval is collected as the JFR reader feeds it ({@link
 * ProfileCollector#add} over {@link SyntheticStacks}), without JFR. Each span's context carries
 * its request's route and method as attributes (user-defined entries here: they reach the samples
 * as a local root's span attributes do).
 * <pre>java -jar benchmarks/target/benchmarks.jar EncodeBenchmark -prof gc</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class EncodeBenchmark {
  static final int SAMPLES = 20_000;
  static final int STACKS = 2_000;
  static final int DEPTH = 40;
  static final int FUNCTIONS = 500;
  static final int SPANS = 200;

  private ProfileInterval interval;
  private ExportRequestEncoder encoder;

  @Setup(Level.Trial)
  public void setUp() {
    interval = buildInterval();
    encoder = new ExportRequestEncoder(Resource.getDefault(), "bench");
  }

  static ProfileInterval buildInterval() {
    Random random = new Random(42);
    ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));
    ContextRecord[] spans = new ContextRecord[SPANS];
    for (int i = 0; i < SPANS; i++) {
      SpanContext sc =
          SpanContext.create(
              String.format("%032x", i + 1), String.format("%016x", i + 1), TraceFlags.getSampled(), TraceState.getDefault());
      // each span's request has one of 10 routes, as context attributes
      UserEntries request = new UserEntries(new String[] {"http.route", "/route/" + i % 10, "http.request.method", "GET"});
      spans[i] = registry.resolve(registry.idOf(sc, request));
    }
    SyntheticStacks stacks = new SyntheticStacks(random, STACKS, DEPTH, FUNCTIONS);
    ProfileCollector collector = new ProfileCollector();
    long start = EpochClock.nowNanos();
    SampleType cpu = SampleType.cpuSamples(20_000_000L);
    for (int i = 0; i < SAMPLES; i++) {
      int span = random.nextInt(SPANS);
      boolean inSpan = random.nextInt(5) != 0;
      collector.add(cpu, stacks, -1, random.nextInt(STACKS), inSpan ? spans[span] : null, start + i * 500_000L, 1);
    }
    return collector.takeInterval();
  }

  @Benchmark
  public byte[] encode() {
    return encoder.encode(interval, EpochClock.nowNanos());
  }

  @TearDown(Level.Trial)
  public void printSizes() throws IOException {
    byte[] request = encode();
    ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(gzipped)) {
      gzip.write(request);
    }
    System.out.printf(
        "%nrequest: %d samples, %d bytes, %d bytes gzipped%n", interval.sampleCount(), request.length, gzipped.size());
  }
}
