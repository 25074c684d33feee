package io.spanflight.internal.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.profile.EpochClock;
import io.spanflight.internal.profile.ExportRequestEncoder;
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

  private final ProfileCollector collector = new ProfileCollector();
  private final MethodTimingDeltas deltas = new MethodTimingDeltas(collector);

  @Test
  void eachEventAddsItsIncrease() throws Exception {
    deltas.onEvent(ONE_METHOD, METHOD, 2, 5 * MILLI, EpochClock.nowNanos());
    deltas.onEvent(ONE_METHOD, METHOD, 4, 6 * MILLI, EpochClock.nowNanos());

    ExportProfilesServiceRequest request = collected();
    assertThat(total(request, "method_invocations")).isEqualTo(4);
    assertThat(total(request, "method_time")).isEqualTo(24 * MILLI);
  }

  @Test
  void aCallCountedBeforeItsTimeStillAddsItsTime() throws Exception {
    deltas.onEvent(ONE_METHOD, METHOD, 2, 5 * MILLI, EpochClock.nowNanos());
    // read between the third call's count and its 20 ms: the average lacks them
    deltas.onEvent(ONE_METHOD, METHOD, 3, 10 * MILLI / 3, EpochClock.nowNanos());
    // the next read has the time, but no new call
    deltas.onEvent(ONE_METHOD, METHOD, 3, 10 * MILLI, EpochClock.nowNanos());

    ExportProfilesServiceRequest request = collected();
    assertThat(total(request, "method_invocations")).isEqualTo(3);
    assertThat(total(request, "method_time")).isCloseTo(30 * MILLI, within(3L)); // averages are rounded
  }

  @Test
  void anEventWithoutAnAverageAddsNothing() throws Exception {
    deltas.onEvent(ONE_METHOD, METHOD, 3, Long.MIN_VALUE, EpochClock.nowNanos());
    deltas.onEvent(ONE_METHOD, METHOD, 0, 5 * MILLI, EpochClock.nowNanos());

    ExportProfilesServiceRequest request = collected();
    assertThat(total(request, "method_invocations")).isZero();
    assertThat(total(request, "method_time")).isZero();
  }

  /** The interval collected so far, encoded and read back with the official classes. */
  private ExportProfilesServiceRequest collected() throws Exception {
    byte[] bytes = new ExportRequestEncoder(Resource.create(Attributes.empty()), "test")
        .encode(collector.takeInterval(), EpochClock.nowNanos());
    return ExportProfilesServiceRequest.parseFrom(bytes);
  }

  /** The sum of the values of every sample of {@code type} in {@code request}. */
  private static long total(ExportProfilesServiceRequest request, String type) {
    if (request.getResourceProfilesCount() == 0) {
      return 0;
    }
    ProfilesDictionary dictionary = request.getDictionary();
    long total = 0;
    for (Profile profile : request.getResourceProfiles(0).getScopeProfiles(0).getProfilesList()) {
      if (dictionary.getStringTable(profile.getSampleType().getTypeStrindex()).equals(type)) {
        total += profile.getSamplesList().stream()
            .flatMap(sample -> sample.getValuesList().stream())
            .mapToLong(Long::longValue)
            .sum();
      }
    }
    return total;
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
