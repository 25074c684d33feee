package io.spanflight.smoke.vthreads;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CPU burns that last until the test releases them (or their deadline passes), so that a reader
 * outside the JVM (gdb, in {@code ThreadRecordGdbSmokeTest}) can look at the threads while they
 * run inside their request's span, however long attaching takes.
 */
final class HeldBurns {
  private final AtomicInteger burning = new AtomicInteger();
  /** Each release ends the burns that started before it; later burns run again. */
  private final AtomicLong releases = new AtomicLong();

  /** Burns CPU on the calling thread until released or {@code maxMillis} passed. */
  long burnUntilReleased(long maxMillis) {
    long startedAfter = releases.get();
    long deadline = System.nanoTime() + maxMillis * 1_000_000L;
    burning.incrementAndGet();
    try {
      long acc = maxMillis + 1;
      while (releases.get() == startedAfter && System.nanoTime() - deadline < 0) {
        for (int i = 0; i < 2_000; i++) {
          acc = acc * 6364136223846793005L + 1442695040888963407L; // 64-bit LCG step
        }
      }
      return acc;
    } finally {
      burning.decrementAndGet();
    }
  }

  /** How many burns run now. */
  int burning() {
    return burning.get();
  }

  /** Ends every burn running now. */
  void releaseAll() {
    releases.incrementAndGet();
  }
}
