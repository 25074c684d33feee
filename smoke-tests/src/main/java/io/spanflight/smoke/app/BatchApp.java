package io.spanflight.smoke.app;

/**
 * A batch program: its {@code main} burns CPU in {@link #crunch} for the given number of seconds
 * (default 3), prints {@code MAIN RETURNS} and returns. Nothing of its own keeps the JVM alive, so
 * the JVM must exit right after, whatever agent or extension runs inside it.
 *
 * <p>Usage: {@code BatchApp [seconds]}.
 */
public final class BatchApp {
  private BatchApp() {}

  public static void main(String[] args) {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
    long result = crunch(seconds * 1_000_000_000L);
    System.out.println("MAIN RETURNS " + (result == 42 ? "!" : ""));
    System.out.flush();
  }

  /** Burns CPU for {@code nanos}; the leaf frame that the profiles must show. */
  static long crunch(long nanos) {
    long deadline = System.nanoTime() + nanos;
    long x = 1;
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < 10_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    return x;
  }
}
