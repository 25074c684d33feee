package io.spanflight.smoke.app.propagation;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The pools of {@code Executors.newFixedThreadPool}, {@code newCachedThreadPool} and {@code
 * newScheduledThreadPool}, with {@link LeakWatch#afterTask()} after every task.
 */
public final class CheckedPools {
  private CheckedPools() {}

  public static ExecutorService fixed(int threads, String name) {
    return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
        Daemons.named(name)) {
      @Override
      protected void afterExecute(Runnable task, Throwable failure) {
        LeakWatch.afterTask();
      }
    };
  }

  static ExecutorService cached(String name) {
    return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
        Daemons.named(name)) {
      @Override
      protected void afterExecute(Runnable task, Throwable failure) {
        LeakWatch.afterTask();
      }
    };
  }

  static ScheduledExecutorService scheduled(int threads, String name) {
    return new ScheduledThreadPoolExecutor(threads, Daemons.named(name)) {
      @Override
      protected void afterExecute(Runnable task, Throwable failure) {
        LeakWatch.afterTask();
      }
    };
  }
}
