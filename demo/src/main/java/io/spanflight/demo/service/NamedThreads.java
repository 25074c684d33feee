package io.spanflight.demo.service;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code prefix-1}, {@code prefix-2}, ... so thread dumps read well. */
final class NamedThreads {
  private NamedThreads() {}

  static ThreadFactory daemon(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + "-" + next.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
