package io.spanflight.internal.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.spanflight.internal.bridge.JavaContextBridge;
import org.junit.jupiter.api.Test;

class SpanLinkTest {
  private static final SpanContext SPAN =
      SpanContext.create(
          "ff0102030405060708090a0b0c0d0e0f", "80f1e2d3c4b5a697", TraceFlags.getSampled(), TraceState.getDefault());

  /** A link from the lower-case hex ids of a valid span context, as a record parses them. */
  private static SpanLink linkOf(String traceIdHex, String spanIdHex) {
    return new SpanLink(
        SpanLink.parseHex(traceIdHex, 0), SpanLink.parseHex(traceIdHex, 16), SpanLink.parseHex(spanIdHex, 0));
  }

  @Test
  void keepsTheIdsOfASpanContextAsNumbersAndGivesThemBackUnchanged() {
    SpanLink link = linkOf(SPAN.getTraceId(), SPAN.getSpanId());

    assertThat(link.traceIdHex()).isEqualTo(SPAN.getTraceId());
    assertThat(link.spanIdHex()).isEqualTo(SPAN.getSpanId());
    assertThat(link.traceIdBytes()).isEqualTo(SPAN.getTraceIdBytes());
    assertThat(link.spanIdBytes()).isEqualTo(SPAN.getSpanIdBytes());
    assertThat(link.traceIdHigh()).isEqualTo(0xff01020304050607L);
    assertThat(link.spanId()).isEqualTo(0x80f1e2d3c4b5a697L);
  }

  @Test
  void readsEveryHexDigitInEitherCaseAsTheJdkDoes() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < 10_000; i++) {
      long value = random.nextLong();
      String hex = SpanLink.hex(value);
      assertThat(SpanLink.parseHex(hex, 0)).isEqualTo(value);
      assertThat(SpanLink.parseHex("x" + hex.toUpperCase(java.util.Locale.ROOT), 1)).isEqualTo(value);
    }
    assertThat(SpanLink.parseHex("0123456789abcdefABCDEF", 6)).isEqualTo(Long.parseUnsignedLong("6789abcdefABCDEF", 16));
  }

  @Test
  void linksToTheSameSpanAreEqual() {
    assertThat(linkOf(SPAN.getTraceId(), SPAN.getSpanId()))
        .isEqualTo(linkOf(SPAN.getTraceId(), SPAN.getSpanId()))
        .isNotEqualTo(linkOf(SPAN.getTraceId(), "80f1e2d3c4b5a698"));
  }

  @Test
  void aRecordCarriesItsOwnSpanIdAndTheIdsOfItsLink() {
    ContextRegistry registry = new ContextRegistry(new JavaContextBridge(16));
    ContextRecord record = registry.resolve(registry.idOf(SPAN));

    assertThat(record.traceId()).isEqualTo(SPAN.getTraceIdBytes());
    assertThat(record.spanId()).isEqualTo(SPAN.getSpanIdBytes());
    assertThat(record.traceIdHex()).isEqualTo(SPAN.getTraceId());
    assertThat(record.spanIdNumber()).isEqualTo(Long.parseUnsignedLong(SPAN.getSpanId(), 16));
  }
}
