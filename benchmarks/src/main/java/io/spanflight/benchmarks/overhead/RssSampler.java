package io.spanflight.benchmarks.overhead;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/** Reads a process's {@code VmRSS} at a fixed period on its own thread until closed. */
final class RssSampler implements AutoCloseable {
  /** One reading: nanoseconds since the sampler started, and bytes. */
  record Reading(long nanos, long bytes) {}

  private final long pid;
  private final long periodNanos;
  private final List<Reading> readings = new ArrayList<>();
  private final Thread thread;
  private final long start = System.nanoTime();
  private volatile boolean running = true;

  RssSampler(long pid, long periodMillis) {
    this.pid = pid;
    this.periodNanos = periodMillis * 1_000_000L;
    this.thread = new Thread(this::loop, "rss-sampler-" + pid);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void loop() {
    long next = System.nanoTime();
    while (running) {
      try {
        long bytes = ProcStats.rssBytes(pid);
        synchronized (readings) {
          readings.add(new Reading(System.nanoTime() - start, bytes));
        }
      } catch (IOException e) {
        return; // the process is gone
      }
      next += periodNanos;
      LockSupport.parkNanos(next - System.nanoTime()); // a fixed-rate sampler, not a wait for a condition
    }
  }

  List<Reading> readings() {
    synchronized (readings) {
      return List.copyOf(readings);
    }
  }

  /** The mean of the readings, in bytes (0 if none). */
  long meanBytes() {
    return (long) readings().stream().mapToLong(Reading::bytes).average().orElse(0);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join();
  }
}
