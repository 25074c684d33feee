package io.spanflight.demo.service;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code /recommend}: fan-out. Splits the candidate set into shards, scores half of them on a
 * shared thread pool and half on virtual threads (JDK 21 and newer; a second pool before), and
 * merges the best. The agent carries the request's context into every task, so the scoring CPU
 * belongs to the request's span although it runs on other threads.
 */
final class RecommendationEngine implements AutoCloseable {
  static final int SHARDS_PER_BRANCH = 3;
  static final int SHARD_SIZE = 4_000;

  private final ExecutorService pool;
  private final ExecutorService virtualThreads;
  private final boolean virtual;

  private RecommendationEngine(ExecutorService pool, ExecutorService virtualThreads, boolean virtual) {
    this.pool = pool;
    this.virtualThreads = virtualThreads;
    this.virtual = virtual;
  }

  static RecommendationEngine create() {
    ExecutorService pool = Executors.newFixedThreadPool(4, NamedThreads.daemon("recommend-pool"));
    ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
    boolean virtual = virtualThreads != null;
    if (!virtual) {
      virtualThreads = Executors.newFixedThreadPool(4, NamedThreads.daemon("recommend-fallback"));
    }
    return new RecommendationEngine(pool, virtualThreads, virtual);
  }

  /** Whether the second branch runs on virtual threads (else on a second pool). */
  boolean usesVirtualThreads() {
    return virtual;
  }

  String recommend(int user) throws InterruptedException {
    List<Future<Double>> branches = new ArrayList<>();
    for (int shard = 0; shard < SHARDS_PER_BRANCH; shard++) {
      long seed = user * 1_000L + shard;
      branches.add(pool.submit(() -> scoreOnPool(seed)));
      branches.add(virtualThreads.submit(() -> scoreOnVirtualThread(seed + 500)));
    }
    double best = 0;
    for (Future<Double> branch : branches) {
      try {
        best = Math.max(best, branch.get());
      } catch (ExecutionException e) {
        throw new IllegalStateException("a scoring task failed", e.getCause());
      }
    }
    return String.format(Locale.ROOT, "recommend: user %d, best score %.4f (%s)%n", user, best,
        virtual ? "pool + virtual threads" : "two pools");
  }

  /** A shard scored on the shared pool. */
  static double scoreOnPool(long seed) {
    return scoreCandidates(seed);
  }

  /** A shard scored on a virtual thread (on JDK 17-20: on the fallback pool). */
  static double scoreOnVirtualThread(long seed) {
    return scoreCandidates(seed);
  }

  /** The CPU of every /recommend request is spent here, on the pool and on virtual threads. */
  static double scoreCandidates(long seed) {
    double best = 0;
    long x = seed;
    for (int i = 0; i < SHARD_SIZE; i++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      double affinity = (x >>> 11) * 0x1.0p-53;
      double score = 0;
      for (int feature = 1; feature <= 24; feature++) {
        score += Math.sin(affinity * feature) / feature;
      }
      best = Math.max(best, score);
    }
    return best;
  }

  @Override
  public void close() {
    pool.shutdownNow();
    virtualThreads.shutdownNow();
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()} where the JDK has it (21+), else null. */
  private static ExecutorService newVirtualThreadPerTaskExecutor() {
    try {
      Method factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
      return (ExecutorService) factory.invoke(null);
    } catch (ReflectiveOperationException e) {
      return null; // JDK 17-20: no virtual threads
    }
  }
}
