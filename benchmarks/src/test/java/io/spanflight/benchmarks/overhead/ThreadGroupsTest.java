package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Thread groups read from this JVM's own {@code /proc} entries. */
class ThreadGroupsTest {
  @Test
  void aRunningThreadsCpuIsCountedUnderItsFoldedName() throws Exception {
    long pid = ProcessHandle.current().pid();
    ThreadGroups.Snapshot before = ThreadGroups.snapshot(pid);
    CountDownLatch read = new CountDownLatch(1);
    CountDownLatch spun = new CountDownLatch(1);
    Thread spinning = new Thread(() -> {
      // Spins until it has had 150 ms of CPU, however busy the machine.
      while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < 150_000_000L) {
        Thread.onSpinWait();
      }
      spun.countDown();
      try {
        read.await(); // stays alive (and listed) until the test has read it
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "spanflight-t42");
    spinning.start();
    spun.await();
    ThreadGroups.Snapshot after = ThreadGroups.snapshot(pid);
    read.countDown();
    spinning.join();
    Map<String, Long> threads = ThreadGroups.threadsOf("spanflight", before, after);
    assertThat(threads).containsKey("spanflight-t#");
    assertThat(threads.get("spanflight-t#")).isGreaterThanOrEqualTo(100);
    assertThat(ThreadGroups.threadsOf("agent", before, after)).doesNotContainKey("spanflight-t#");
  }
}
