package io.spanflight.internal.jfr.chunk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The stack-carrying events of a recording, each as its time and one line of text (event, thread,
 * class, weight, every frame), in file order, read both ways: with the JDK's parser, the oracle,
 * and with {@link ChunkReader}.
 */
final class ChunkSamples {
  /** An event's time (nanoseconds since the epoch) and the rest of it as text. */
  record Sample(long nanos, String line) {}

  static final String[] EVENTS = {"jdk.ExecutionSample", "jdk.ObjectAllocationSample"};
  static final String[][] FIELDS = {
      {"startTime", "sampledThread", "stackTrace"},
      {"startTime", "eventThread", "stackTrace", "objectClass", "weight"}};

  private ChunkSamples() {}

  /** The lines as the JDK's {@link RecordingFile} reads them. */
  static List<Sample> byTheJdk(Path file) throws IOException {
    List<Sample> lines = new ArrayList<>();
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      String name = event.getEventType().getName();
      if (!List.of(EVENTS).contains(name)) {
        continue;
      }
      boolean execution = name.equals(EVENTS[0]);
      long nanos = event.getStartTime().getEpochSecond() * 1_000_000_000L + event.getStartTime().getNano();
      StringBuilder line = new StringBuilder(name).append(" thread=").append(event.getThread(execution ? "sampledThread" : "eventThread").getJavaThreadId());
      if (!execution) {
        line.append(" class=").append(event.getClass("objectClass").getName()).append(" weight=").append(event.getLong("weight"));
      }
      if (event.getStackTrace() == null) {
        line.append(" no stack");
      } else {
        for (RecordedFrame frame : event.getStackTrace().getFrames()) {
          line.append(" | ").append(frame.getMethod().getType().getName()).append('.').append(frame.getMethod().getName())
              .append(frame.getMethod().getDescriptor()).append(':').append(frame.getLineNumber());
        }
      }
      lines.add(new Sample(nanos, line.toString()));
    }
    return lines;
  }

  /** The lines as {@link ChunkReader} reads them, its constants kept in {@code store}. */
  static List<Sample> byChunkReader(Path file, ConstantStore store) throws IOException {
    List<Sample> lines = new ArrayList<>();
    reader(store, lines).read(file);
    return lines;
  }

  /** A reader that adds the lines of what it reads to {@code lines}. */
  static ChunkReader reader(ConstantStore store, List<Sample> lines) {
    return reader(store, lines, ChunkReader.MAX_STORE_ENTRIES);
  }

  /** The same, with the store cleared between chunks past {@code maxStoreEntries}. */
  static ChunkReader reader(ConstantStore store, List<Sample> lines, long maxStoreEntries) {
    return reader(store, lines, maxStoreEntries, ChunkReader.MAX_STACK_ENTRIES);
  }

  /** The same, with the store's stacks let go of within a chunk past {@code maxStackEntries}. */
  static ChunkReader reader(ConstantStore store, List<Sample> lines, long maxStoreEntries, long maxStackEntries) {
    ChunkReader[] reader = new ChunkReader[1];
    reader[0] = new ChunkReader(store, EVENTS, FIELDS, (subscription, values) -> {
      StringBuilder line = new StringBuilder(EVENTS[subscription]).append(" thread=").append(reader[0].javaThreadId(values[1]));
      if (subscription == 1) {
        line.append(" class=").append(store.string(reader[0].className(values[3])).replace('/', '.'))
            .append(" weight=").append(values[4]);
      }
      int stack = reader[0].stack(values[2]);
      if (stack < 0) {
        line.append(" no stack");
      } else {
        for (int i = 0; i < store.stackLength(stack); i++) {
          int frame = store.frame(stack, i);
          int method = store.frameMethod(frame);
          line.append(" | ").append(store.className(method)).append('.')
              .append(store.methodName(method)).append(store.methodDescriptor(method))
              .append(':').append(store.frameLine(frame));
        }
      }
      lines.add(new Sample(reader[0].nanos(values[0]), line.toString()));
    }, maxStoreEntries, maxStackEntries);
    return reader[0];
  }
}
