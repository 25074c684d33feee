package io.spanflight.smoke.app.propagation;

/**
 * The CPU work of the accuracy suite, in methods whose names say which span the work belongs to:
 * the request's SERVER span, or the outer or inner {@code @WithSpan} child span of the nested
 * scenario. Which request it is, is said by the {@link RequestTag} frames right below them.
 *
 * <p>Each loops over arithmetic and {@code System.nanoTime()} until its deadline (work that
 * JDK 17's sampler catches as well as JDK 25's) and returns the result, so the JIT keeps it.
 */
public final class SpanWork {
  /** The methods, as profile frames name them; {@code AccuracySmokeTest} looks for these. */
  public static final String SERVER = SpanWork.class.getName() + ".burnInServerSpan";

  public static final String OUTER = SpanWork.class.getName() + ".burnInOuterSpan";
  public static final String INNER = SpanWork.class.getName() + ".burnInInnerSpan";

  private SpanWork() {}

  /** Work that belongs to the request's SERVER span. */
  public static long burnInServerSpan(long millis) {
    return burn(millis, 0x9e3779b97f4a7c15L);
  }

  /** Work that belongs to the outer child span ({@code nested.outer}). */
  public static long burnInOuterSpan(long millis) {
    return burn(millis, 0xbf58476d1ce4e5b9L);
  }

  /** Work that belongs to the innermost child span ({@code nested.inner}). */
  public static long burnInInnerSpan(long millis) {
    return burn(millis, 0x94d049bb133111ebL);
  }

  private static long burn(long millis, long seed) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long acc = seed + millis;
    do {
      for (int i = 0; i < 2_000; i++) {
        acc = acc * 6364136223846793005L + 1442695040888963407L; // 64-bit LCG step
      }
    } while (System.nanoTime() - deadline < 0);
    return acc;
  }
}
