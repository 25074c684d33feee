package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why timelines are keyed on the Java thread id: JFR reports a sample of a mounted virtual thread
 * against the virtual thread (its Java id, flag {@code virtual}), never against its carrier, also
 * after the thread parked and resumed on another carrier. {@link SampleJoiner} reads exactly that
 * id from {@code sampledThread}. Checked on the JDK the tests run on (21 and newer).
 */
class VirtualThreadSamplesTest {
  private static final String BURN = "burnOnVirtualThread";

  @Test
  @SuppressWarnings("deprecation") // Thread.getId(): threadId() exists from 19 on; we compile for 17.
  void executionSamplesOfAMountedVirtualThreadNameTheVirtualThread(@TempDir Path dir) throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "no virtual threads before JDK 21");
    Path file = dir.resolve("virtual.jfr");
    Thread virtual;
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      recording.start();
      virtual = startVirtualThread(() -> {
        long sink = 0;
        for (int slice = 0; slice < 30; slice++) { // ~20 ms of CPU, then a park, 30 times
          sink += burnOnVirtualThread(20);
          try {
            Thread.sleep(1); // unmounts; the thread may resume on another carrier
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
        assertThat(sink).isNotEqualTo(42);
      });
      virtual.join(Duration.ofSeconds(60).toMillis());
      recording.stop();
      recording.dump(file);
    }

    List<RecordedThread> sampled = RecordingFile.readAllEvents(file).stream()
        .filter(event -> event.getEventType().getName().equals("jdk.ExecutionSample"))
        .filter(VirtualThreadSamplesTest::inBurn)
        .map(event -> event.getThread(JfrSource.SAMPLED_THREAD))
        .collect(Collectors.toList());

    assertThat(sampled).as("samples taken in " + BURN).hasSizeGreaterThanOrEqualTo(5);
    for (RecordedThread thread : sampled) {
      assertThat(thread.getJavaThreadId()).as("sampled Java thread id").isEqualTo(virtual.getId());
      assertThat(thread.getBoolean("virtual")).as("sampled thread is virtual").isTrue();
      assertThat(thread.getOSThreadId()).as("a virtual thread has no OS thread id").isEqualTo(-1);
    }
  }

  private static boolean inBurn(RecordedEvent event) {
    return event.getStackTrace() != null
        && event.getStackTrace().getFrames().stream()
            .map(RecordedFrame::getMethod)
            .anyMatch(method -> method.getName().equals(BURN));
  }

  static long burnOnVirtualThread(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long acc = millis + 1;
    do {
      for (int i = 0; i < 2_000; i++) {
        acc = acc * 6364136223846793005L + 1442695040888963407L;
      }
    } while (System.nanoTime() - deadline < 0);
    return acc;
  }

  /** {@code Thread.ofVirtual().start(body)}, called reflectively (tests compile for 17). */
  private static Thread startVirtualThread(Runnable body) throws ReflectiveOperationException {
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
        .invoke(builder, body);
  }
}
