package io.spanflight.smoke.app;

/**
 * CPU work with distinctive method names, so that profile samples taken inside it are easy to
 * find. Each method loops over deterministic arithmetic until its deadline and returns the
 * result, so the JIT cannot drop the loop.
 */
public final class BurnWork {
  private BurnWork() {}

  /** Spends about {@code millis} ms of CPU on the calling thread. */
  public static long burnCpuInsideRequest(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long acc = millis + 1;
    do {
      for (int i = 0; i < 2_000; i++) {
        acc = acc * 6364136223846793005L + 1442695040888963407L; // 64-bit LCG step
      }
    } while (System.nanoTime() - deadline < 0);
    return acc;
  }

  /** Spends about {@code millis} ms of CPU on the calling thread, with different arithmetic. */
  public static long digestInsideRequest(long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long hash = 0xcbf29ce484222325L;
    long round = 0;
    do {
      for (int i = 0; i < 2_000; i++) {
        hash ^= round++ & 0xff; // FNV-1a over a counter
        hash *= 0x100000001b3L;
      }
    } while (System.nanoTime() - deadline < 0);
    return hash;
  }
}
