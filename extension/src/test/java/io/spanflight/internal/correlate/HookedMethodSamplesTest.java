package io.spanflight.internal.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.spanflight.internal.ScriptedBridge;
import io.spanflight.internal.filter.SampleFilters;
import io.spanflight.internal.format.Hex;
import io.spanflight.internal.instrumentation.MethodHooks;
import io.spanflight.internal.instrumentation.bootstrap.MethodClock;
import io.spanflight.internal.instrumentation.bootstrap.MethodStacks;
import io.spanflight.internal.profile.DecodedRequest;
import io.spanflight.internal.profile.ProfileCollector;
import io.spanflight.internal.registry.ContextRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the hooks' records (fed through {@link MethodClock#exit}, as the advice calls it) become:
 * per-interval invocations and time per timed method, and one {@code method_trace} sample per
 * traced call, linked to the span its thread was in, the first with its callers below the leaf.
 */
class HookedMethodSamplesTest {
  private static final long MILLI = 1_000_000L;
  private static final String SHOP = "com.example.Shop";
  private static final SpanContext SPAN = SpanContext.create(
      "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());

  private final ScriptedBridge bridge = new ScriptedBridge();
  private final Timelines timelines = new Timelines(bridge);
  private final ContextRegistry registry = new ContextRegistry(bridge);
  private final ProfileCollector collector = new ProfileCollector();
  /** One stack per method (an hour apart), no limit over all methods. */
  private final MethodHooks hooks =
      MethodHooks.detached(8, 1024, new MethodStacks(8, MethodHooks.STACK_DEPTH, TimeUnit.HOURS.toNanos(1), 0));
  private final HookedMethodSamples samples =
      new HookedMethodSamples(hooks, timelines, registry, collector, SampleFilters.NONE);
  private final int checkout = hooks.ids().idOf(SHOP, "checkout", "()V");
  private final int price = hooks.ids().idOf(SHOP, "price", "(I)J");
  private final int refund = hooks.ids().idOf(SHOP, "refund", "()V");

  @AfterEach
  void disconnect() {
    MethodClock.clear();
  }

  @Test
  void timedCallsAddUpPerDrainAndTracedCallsLinkToTheirSpanTheFirstWithItsCallers() throws Exception {
    callPrice(5 * MILLI); // before profiling started: forgotten
    MethodClock.exit(refund, MethodClock.TIMED | MethodClock.TRACED, System.nanoTime() - 5 * MILLI);
    samples.baseline();
    samples.drain();
    collector.takeInterval();

    long thread = Thread.currentThread().getId();
    long spanStart = System.nanoTime() - 20 * MILLI; // before the calls below started
    int context = registry.idOf(SPAN);
    bridge.then(sink -> sink.switched(thread, spanStart, context));
    callCheckout(3 * MILLI); // started before the next one: traces come in the order of their starts
    callCheckout(2 * MILLI);
    callPrice(1 * MILLI);
    callPrice(1 * MILLI);
    long spanEnd = System.nanoTime();
    bridge.then(sink -> sink.switched(thread, spanEnd, 0));
    long afterSpan = System.nanoTime();
    MethodClock.exit(checkout, MethodClock.TIMED | MethodClock.TRACED, spanEnd + 1); // not linked
    long lastEnd = System.nanoTime();
    samples.drain();

    DecodedRequest first = DecodedRequest.takeInterval(collector);
    assertThat(first.total("method_invocations", SHOP + ".checkout")).isEqualTo(3);
    assertThat(first.total("method_invocations", SHOP + ".price")).isEqualTo(2);
    long checkoutTime = first.total("method_time", SHOP + ".checkout");
    assertThat(checkoutTime).isBetween(5 * MILLI, 5 * MILLI + (lastEnd - spanEnd));
    assertThat(first.total("method_time", SHOP + ".price")).isGreaterThanOrEqualTo(2 * MILLI);

    List<Trace> traces = traces(first, SHOP + ".checkout");
    assertThat(traces).hasSize(3);
    assertThat(traces(first, SHOP + ".price")).as("timed only: not traced").isEmpty();
    assertThat(first.total("method_invocations", SHOP + ".refund")).as("called before the baseline").isZero();
    assertThat(traces(first, SHOP + ".refund")).as("called before the baseline").isEmpty();
    assertThat(traces).extracting(t -> t.spanId).containsExactly(SPAN.getSpanId(), SPAN.getSpanId(), null);
    assertThat(traces.get(0).nanos).isGreaterThanOrEqualTo(3 * MILLI);
    assertThat(traces.get(1).nanos).isGreaterThanOrEqualTo(2 * MILLI);
    assertThat(traces.get(2).nanos).isBetween(afterSpan - spanEnd, lastEnd - spanEnd);
    assertThat(traces.stream().mapToLong(t -> t.nanos).sum()).isEqualTo(checkoutTime);
    // one stack per method per hour: the first call has its callers, the others the method alone
    // (callCheckout plays the traced method: the frame that calls exit, named as the method's id says)
    assertThat(traces.get(0).frames)
        .startsWith(SHOP + ".checkout", getClass().getName() + ".timedCallsAddUpPerDrainAndTracedCallsLinkToTheirSpanTheFirstWithItsCallers")
        .hasSizeLessThanOrEqualTo(1 + MethodHooks.STACK_DEPTH)
        .as("hidden classes (JUnit's reflective call) named as JFR names them").noneMatch(name -> name.contains("/"));
    assertThat(traces.get(1).frames).containsExactly(SHOP + ".checkout");
    assertThat(traces.get(2).frames).containsExactly(SHOP + ".checkout");
    assertThat(samples.leafOnly()).isEqualTo(2);

    callPrice(1 * MILLI);
    samples.drain();
    DecodedRequest second = DecodedRequest.takeInterval(collector);
    assertThat(second.total("method_invocations", SHOP + ".price")).as("only the calls since the last drain").isEqualTo(1);
    assertThat(second.total("method_invocations", SHOP + ".checkout")).isZero();
    assertThat(traces(second, SHOP + ".checkout")).isEmpty();
  }

  /** The advice of a traced and timed method: its start, then exit; the call itself took {@code nanos}. */
  private void callCheckout(long nanos) {
    MethodClock.exit(checkout, MethodClock.TIMED | MethodClock.TRACED, System.nanoTime() - nanos);
  }

  private void callPrice(long nanos) {
    MethodClock.exit(price, MethodClock.TIMED, System.nanoTime() - nanos);
  }

  /** Traced calls of {@code leaf}, one per value, in the order of their timestamps. */
  private static List<Trace> traces(DecodedRequest request, String leaf) {
    List<long[]> order = new ArrayList<>();
    List<Trace> traces = new ArrayList<>();
    for (Sample sample : request.samples("method_trace")) {
      List<String> frames = request.frames(sample);
      if (!frames.get(0).equals(leaf)) {
        continue;
      }
      String span = sample.getLinkIndex() == 0
          ? null
          : Hex.of(request.dictionary().getLinkTable(sample.getLinkIndex()).getSpanId().toByteArray());
      for (int i = 0; i < sample.getValuesCount(); i++) {
        order.add(new long[] {sample.getTimestampsUnixNano(i), traces.size()});
        traces.add(new Trace(frames, span, sample.getValues(i)));
      }
    }
    order.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Trace> sorted = new ArrayList<>();
    for (long[] o : order) {
      sorted.add(traces.get((int) o[1]));
    }
    return sorted;
  }

  /** One traced call: its stack, the span it was in (or null) and its time. */
  private static final class Trace {
    final List<String> frames;
    final String spanId;
    final long nanos;

    Trace(List<String> frames, String spanId, long nanos) {
      this.frames = frames;
      this.spanId = spanId;
      this.nanos = nanos;
    }
  }
}
