package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fields the join reads besides stacks, read by {@link ChunkReader} as the JDK's parser reads
 * them from a live recording: a thread's Java id and whether it is virtual, a duration in
 * nanoseconds, and the strings of {@code jdk.ActiveSetting}.
 */
class ChunkReaderFieldsTest {
  private static final String[] EVENTS = {"jdk.ThreadSleep", "jdk.ActiveSetting"};
  private static final String[][] FIELDS = {{"startTime", "eventThread", "duration"}, {"id", "name", "value"}};

  @TempDir Path dir;

  @Test
  void threadsDurationsAndSettingStringsAreReadAsTheJdkReadsThem() throws Exception {
    Path file = dir.resolve("sleeps.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO);
      recording.enable("jdk.ActiveSetting");
      recording.start();
      sleepOn(new Thread(ChunkReaderFieldsTest::sleepAWhile));
      if (Runtime.version().feature() >= 21) {
        sleepOn(virtualThread(ChunkReaderFieldsTest::sleepAWhile));
      }
      recording.stop();
      recording.dump(file);
    }

    List<String> expected = new ArrayList<>();
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      if (event.getEventType().getName().equals(EVENTS[0])) {
        RecordedThread thread = event.getThread();
        boolean virtual = thread.hasField("virtual") && thread.getBoolean("virtual");
        expected.add("sleep " + thread.getJavaThreadId() + " virtual=" + virtual + " " + event.getDuration().toNanos());
      } else if (event.getEventType().getName().equals(EVENTS[1])) {
        expected.add("setting " + event.getLong("id") + " " + event.getString("name") + "=" + event.getString("value"));
      }
    }
    ConstantStore store = new ConstantStore();
    List<String> read = new ArrayList<>();
    ChunkReader[] reader = new ChunkReader[1];
    reader[0] = new ChunkReader(store, EVENTS, FIELDS, (subscription, values) -> read.add(subscription == 0
        ? "sleep " + reader[0].javaThreadId(values[1]) + " virtual=" + reader[0].virtual(values[1]) + " " + values[2]
        : "setting " + values[0] + " " + store.string((int) values[1]) + "=" + store.string((int) values[2])));
    reader[0].read(file);

    assertThat(expected).anyMatch(line -> line.startsWith("sleep ") && line.contains("virtual=false"))
        .anyMatch(line -> line.startsWith("setting ") && line.contains("threshold="));
    if (Runtime.version().feature() >= 21) {
      assertThat(expected).anyMatch(line -> line.startsWith("sleep ") && line.contains("virtual=true"));
    }
    assertThat(read).containsExactlyElementsOf(expected);
  }

  private static void sleepOn(Thread thread) throws InterruptedException {
    thread.start();
    thread.join();
  }

  private static void sleepAWhile() {
    try {
      for (int i = 0; i < 5; i++) {
        Thread.sleep(2);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** {@code Thread.ofVirtual().unstarted(body)}, called reflectively (tests compile for 17). */
  private static Thread virtualThread(Runnable body) throws ReflectiveOperationException {
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class)
        .invoke(builder, body);
  }
}
