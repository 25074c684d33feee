package io.spanflight.smoke.profiles;

import com.google.protobuf.ByteString;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * A span identity as lowercase hex: what a profile sample's link points at, and what a received
 * span is, so the two can be compared.
 */
public record SpanLink(String traceId, String spanId) implements Comparable<SpanLink> {
  private static final Comparator<SpanLink> ORDER =
      Comparator.comparing(SpanLink::traceId).thenComparing(SpanLink::spanId);

  public static SpanLink of(ByteString traceId, ByteString spanId) {
    HexFormat hex = HexFormat.of();
    return new SpanLink(hex.formatHex(traceId.toByteArray()), hex.formatHex(spanId.toByteArray()));
  }

  @Override
  public int compareTo(SpanLink other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return "trace " + traceId + " span " + spanId;
  }
}
