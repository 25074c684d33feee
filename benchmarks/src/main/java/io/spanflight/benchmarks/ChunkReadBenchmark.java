package io.spanflight.benchmarks;

import io.spanflight.internal.jfr.chunk.ChunkReader;
import io.spanflight.internal.jfr.chunk.ConstantStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading the stack-carrying samples of a recording, with every frame looked at, by the JDK's
 * parser ({@code RecordingFile}) and by Spanflight's own {@link ChunkReader} (whose store is kept
 * from one read to the next, as a reader following a JVM's repository keeps it). With {@code -prof
 * gc} it also gives what each allocates per read. The recording is made in the setup (execution
 * samples every millisecond and allocation samples of two threads running stacks of many shapes,
 * 3 s, in chunks of about a second), or given with {@code -p file=<path>}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class ChunkReadBenchmark {
  private static final String[] EVENTS = {"jdk.ExecutionSample", "jdk.ObjectAllocationSample"};
  private static final String[][] FIELDS = {{"startTime", "sampledThread", "stackTrace"},
      {"startTime", "eventThread", "stackTrace"}};

  @Param({""})
  public String file;

  private Path recording;
  private Path made;
  private final ConstantStore store = new ConstantStore();
  private ChunkReader reader;
  private long sum;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    recording = file.isEmpty() ? (made = record()) : Path.of(file);
    reader = new ChunkReader(store, EVENTS, FIELDS, (subscription, values) -> {
      int stack = reader.stack(values[2]);
      sum += reader.javaThreadId(values[1]) + values[0];
      for (int i = 0; stack >= 0 && i < store.stackLength(stack); i++) {
        int frame = store.frame(stack, i);
        sum += store.frameLine(frame) + store.methodNameIndex(store.frameMethod(frame));
      }
    });
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (made != null) {
      Files.delete(made);
    }
  }

  @Benchmark
  public long jdkParser() throws IOException {
    long total = 0;
    try (RecordingFile in = new RecordingFile(recording)) {
      while (in.hasMoreEvents()) {
        RecordedEvent event = in.readEvent();
        String name = event.getEventType().getName();
        if (!name.equals(EVENTS[0]) && !name.equals(EVENTS[1])) {
          continue;
        }
        RecordedStackTrace stack = event.getStackTrace();
        total += event.getLong("startTime");
        if (stack != null) {
          for (RecordedFrame frame : stack.getFrames()) {
            total += frame.getLineNumber() + frame.getMethod().getName().length();
          }
        }
      }
    }
    return total;
  }

  @Benchmark
  public long ownReader() throws IOException {
    reader.read(recording);
    return sum;
  }

  /** About 3 s of two threads running stacks of many shapes, in chunks of about a second. */
  private static Path record() throws Exception {
    Path path = Files.createTempFile("chunk-read-benchmark", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
      recording.enable("jdk.ObjectAllocationSample").with("throttle", "2000/s");
      recording.start();
      Thread other = new Thread(() -> shapes(3_000));
      other.start();
      for (int second = 0; second < 3; second++) {
        shapes(1_000);
        try (Recording boundary = new Recording()) { // a recording starting ends JFR's chunk
          boundary.start();
        }
      }
      other.join();
      recording.stop();
      recording.dump(path);
    }
    return path;
  }

  private static long shapes(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long sum = 0;
    for (int shape = 0; System.nanoTime() < deadline; shape++) {
      sum += descend(8 + shape % 24, shape);
    }
    return sum;
  }

  /** Recurses {@code depth} times, through one of two methods per level chosen by {@code shape}'s bits. */
  private static long descend(int depth, int shape) {
    if (depth == 0) {
      return Long.toString(shape).hashCode() + new int[16].length;
    }
    return (shape >>> (depth % 31) & 1) == 0 ? left(depth - 1, shape) : right(depth - 1, shape);
  }

  private static long left(int depth, int shape) {
    return descend(depth, shape) + 1;
  }

  private static long right(int depth, int shape) {
    return descend(depth, shape) + 2;
  }
}
