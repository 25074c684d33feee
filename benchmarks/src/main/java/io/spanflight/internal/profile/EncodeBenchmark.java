package io.spanflight.internal.profile;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.JavaContextBridge;
import io.spanflight.internal.registry.ContextRecord;
import io.spanflight.internal.registry.ContextRegistry;
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
 * size is printed once. Lives in the profile package to build the interval without JFR.
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
      spans[i] = registry.resolve(registry.idOf(sc));
    }
    long start = EpochClock.nowNanos();
    ProfileInterval interval = new ProfileInterval(start);
    DictionaryBuilder d = interval.dictionary;
    int[] stacks = new int[STACKS];
    for (int s = 0; s < STACKS; s++) {
      int[] locations = new int[DEPTH];
      for (int f = 0; f < DEPTH; f++) {
        int fn = random.nextInt(FUNCTIONS);
        int function = d.function("com.example.service.Component" + (fn % 50), "method" + fn, "()V");
        locations[f] = d.location(function, 10 + random.nextInt(200));
      }
      stacks[s] = d.stack(locations);
    }
    SampleType cpu = SampleType.cpuSamples(20_000_000L);
    SampleTable table = interval.tables.computeIfAbsent(cpu, t -> new SampleTable());
    for (int i = 0; i < SAMPLES; i++) {
      int span = random.nextInt(SPANS);
      boolean inSpan = random.nextInt(5) != 0;
      int link = inSpan ? d.link(spans[span]) : 0;
      // each span's request has one of 10 routes, as context attributes
      int attributes =
          inSpan ? d.attributeSet(new String[] {"http.route", "/route/" + span % 10, "http.request.method", "GET"}) : 0;
      table.add(stacks[random.nextInt(STACKS)], link, attributes, start + i * 500_000L, 1);
    }
    return interval;
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
