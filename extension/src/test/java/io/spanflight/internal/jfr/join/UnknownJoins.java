package io.spanflight.internal.jfr.join;

/** For tests in other packages: joins that the join path counts as unknown, and why. */
public final class UnknownJoins {
  private UnknownJoins() {}

  /** A sample at a tick the (uncalibrated) clock map cannot place: counted as unknown-clock. */
  public static int atUntrustedTick(SampleJoiner joiner) {
    return joiner.contextAt(1, 0L);
  }

  /** A timeline gave {@code contextId}, which no longer resolves: counted as a stale id. */
  public static boolean resolves(SampleJoiner joiner, int contextId) {
    return joiner.linkOf(contextId) != null;
  }
}
