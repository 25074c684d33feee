package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/** Runs test bodies on new platform threads, and waits for the OS thread's end too. */
final class TestThreads {
  private static final AtomicInteger names = new AtomicInteger();

  private TestThreads() {}

  /**
   * Runs {@code body} on a new platform thread and returns its id once the OS thread is gone
   * (so its ring has been retired and the next drain reports everything, the end included).
   */
  @SuppressWarnings("deprecation") // Thread.threadId() exists from 19 on; we run on 17.
  static long runToOsThreadExit(Runnable body) throws InterruptedException {
    String name = "sf-t-" + names.incrementAndGet(); // the JVM gives the OS thread this name
    Thread thread = new Thread(body, name);
    thread.start();
    thread.join();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (osThreadNamed(name)) {
      if (System.nanoTime() - deadline > 0) {
        fail("OS thread " + name + " still runs 10 s after its Java thread ended");
      }
      Thread.onSpinWait();
    }
    return thread.getId();
  }

  private static boolean osThreadNamed(String name) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      return tasks.anyMatch(task -> name.equals(comm(task)));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String comm(Path task) {
    try {
      return Files.readString(task.resolve("comm")).trim();
    } catch (IOException e) {
      return null; // the task ended while we looked
    }
  }
}
