package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spanflight.internal.profile.DecodedRequest;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.InternedStacks;
import io.spanflight.internal.profile.ProfileCollector;
import org.junit.jupiter.api.Test;

/**
 * {@code jdk.MethodTiming}'s cumulative figures become per-event increases, and none of the time
 * is lost when the JDK's counters are read between a call's count and its time.
 */
class MethodTimingDeltasTest {
  private static final int METHOD = 0;
  private static final long MILLI = 1_000_000L;
  private static final String CHECKOUT = "com.example.Shop.checkout";

  private final ProfileCollector collector = new ProfileCollector();
  private final MethodTimingDeltas deltas = new MethodTimingDeltas(collector);

  @Test
  void eachEventAddsItsIncrease() throws Exception {
    deltas.onEvent(ONE_METHOD, METHOD, 2, 5 * MILLI, EpochClock.nowNanos());
    deltas.onEvent(ONE_METHOD, METHOD, 4, 6 * MILLI, EpochClock.nowNanos());

    DecodedRequest request = DecodedRequest.takeInterval(collector);
    assertThat(request.total("method_invocations", CHECKOUT)).isEqualTo(4);
    assertThat(request.total("method_time", CHECKOUT)).isEqualTo(24 * MILLI);
  }

  @Test
  void aCallCountedBeforeItsTimeStillAddsItsTime() throws Exception {
    deltas.onEvent(ONE_METHOD, METHOD, 2, 5 * MILLI, EpochClock.nowNanos());
    // read between the third call's count and its 20 ms: the average lacks them
    deltas.onEvent(ONE_METHOD, METHOD, 3, 10 * MILLI / 3, EpochClock.nowNanos());
    // the next read has the time, but no new call
    deltas.onEvent(ONE_METHOD, METHOD, 3, 10 * MILLI, EpochClock.nowNanos());

    DecodedRequest request = DecodedRequest.takeInterval(collector);
    assertThat(request.total("method_invocations", CHECKOUT)).isEqualTo(3);
    assertThat(request.total("method_time", CHECKOUT)).isCloseTo(30 * MILLI, within(3L)); // averages are rounded
  }

  @Test
  void anEventWithoutAnAverageAddsNothing() throws Exception {
    deltas.onEvent(ONE_METHOD, METHOD, 3, Long.MIN_VALUE, EpochClock.nowNanos());
    deltas.onEvent(ONE_METHOD, METHOD, 0, 5 * MILLI, EpochClock.nowNanos());

    DecodedRequest request = DecodedRequest.takeInterval(collector);
    assertThat(request.total("method_invocations", CHECKOUT)).isZero();
    assertThat(request.total("method_time", CHECKOUT)).isZero();
  }

  /** One method, {@code com.example.Shop.checkout()V}, and no stacks. */
  private static final InternedStacks ONE_METHOD = new InternedStacks() {
    @Override public int generation() { return 0; }
    @Override public int stackLength(int stack) { return 0; }
    @Override public int frame(int stack, int position) { return -1; }
    @Override public int frameMethod(int frame) { return METHOD; }
    @Override public int frameLine(int frame) { return -1; }
    @Override public String className(int method) { return "com.example.Shop"; }
    @Override public String methodName(int method) { return "checkout"; }
    @Override public String methodDescriptor(int method) { return "()V"; }
  };
}
