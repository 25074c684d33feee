package io.spanflight.smoke.app.propagation;

import java.util.concurrent.BlockingQueue;
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
    return new CheckedThreadPool(threads, threads, 0, new LinkedBlockingQueue<>(), name);
  }

  static ExecutorService cached(String name) {
    return new CheckedThreadPool(0, Integer.MAX_VALUE, 60_000, new SynchronousQueue<>(), name);
  }

  static ScheduledExecutorService scheduled(int threads, String name) {
    return new ScheduledThreadPoolExecutor(threads, Daemons.named(name)) {
      @Override
      protected void afterExecute(Runnable task, Throwable failure) {
        LeakWatch.afterTask();
      }
    };
  }

  /** A {@link ThreadPoolExecutor} that runs the leak check after every task. */
  private static final class CheckedThreadPool extends ThreadPoolExecutor {
    CheckedThreadPool(int core, int max, long keepAliveMillis, BlockingQueue<Runnable> queue, String name) {
      super(core, max, keepAliveMillis, TimeUnit.MILLISECONDS, queue, Daemons.named(name));
    }

    @Override
    protected void afterExecute(Runnable task, Throwable failure) {
      LeakWatch.afterTask();
    }
  }
}
