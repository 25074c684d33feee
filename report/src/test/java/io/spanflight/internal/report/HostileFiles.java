package io.spanflight.internal.report;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * Broken and hostile inputs for the report, each with the words its one line on stderr must hold:
 * truncations of a good request, random bytes, another OTLP message, lengths that claim
 * gigabytes, indexes outside their tables, an attribute value nested 50 000 arrays deep, a stack
 * that expands to 25 million frames from 15 KB, and files of other formats. Built byte by byte
 * where the generated classes would not write them (or would overflow their own stack doing so).
 */
final class HostileFiles {
  /** A broken input and what its error must say. */
  static final class Case {
    final byte[] bytes;
    final String expected;

    Case(byte[] bytes, String expected) {
      this.bytes = bytes;
      this.expected = expected;
    }
  }

  private HostileFiles() {}

  /** A small good request: one CPU sample in a span, on an endpoint. */
  static byte[] good() {
    RequestFixture f = new RequestFixture("shop");
    f.cpu(f.stack("app.Checkout.burn", "app.Main.main"), f.link("0102030405060708090a0b0c0d0e0f10", "1112131415161718"),
        3, f.endpoint("GET", "/checkout"));
    return f.build().toByteArray();
  }

  /** Every case by file name (the names end in {@code .binpb}, so a directory listing takes them). */
  static Map<String, Case> all() throws IOException {
    byte[] good = good();
    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put("truncated-3.binpb", new Case(Arrays.copyOf(good, 3), "past the end"));
    cases.put("truncated-half.binpb", new Case(Arrays.copyOf(good, good.length / 2), "past the end"));
    cases.put("truncated-last-byte.binpb", new Case(Arrays.copyOf(good, good.length - 1), "at byte"));
    byte[] random = new byte[4096];
    new Random(13).nextBytes(random);
    cases.put("random.binpb", new Case(random, "not an OTLP profiles request"));
    cases.put("trace-request.binpb", new Case(traceRequest(), "not an OTLP profiles request"));
    cases.put("length-4gb.binpb", new Case(new Proto().tag(1, 2).varint(0xFFFFFFFFL).raw(1, 2, 3).bytes(),
        "length 4294967295 runs past the end"));
    cases.put("length-negative.binpb", new Case(new Proto().tag(2, 2).varint(-1L).bytes(), "length -1 runs past"));
    cases.put("length-2gb-nested.binpb", new Case(new Proto().message(2, new Proto().tag(5, 2).varint(Integer.MAX_VALUE))
        .bytes(), "length 2147483647 runs past"));
    cases.put("varint-11-bytes.binpb", new Case(new Proto().tag(99, 0).raw(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1)
        .bytes(), "varint longer than 10 bytes"));
    cases.put("group-wire-type.binpb", new Case(new byte[] {0x0b, 0x0c}, "wire type 3"));
    cases.put("stack-index-out-of-range.binpb", new Case(profileWithSample(new Proto().field(1, 42)), "stack_index 42 outside"));
    cases.put("link-index-negative.binpb", new Case(profileWithSample(new Proto().field(3, -1L)), "link_index -1 outside"));
    cases.put("location-index-out-of-range.binpb", new Case(new Proto().message(2, new Proto()
        .message(7, new Proto().field(1, 1_000_000_000))).bytes(), "location index 1000000000 outside"));
    cases.put("function-index-negative.binpb", new Case(new Proto().message(2, new Proto()
        .message(2, new Proto().message(3, new Proto().field(1, -5L)))).bytes(), "line function_index -5 outside"));
    cases.put("string-index-out-of-range.binpb", new Case(new Proto().message(2, new Proto()
        .message(3, new Proto().field(1, 7))).bytes(), "function name_strindex 7 outside"));
    cases.put("value-nested-50000-deep.binpb", new Case(deepValue(50_000), "nested more than 32 arrays deep"));
    cases.put("stack-expands-to-25m-frames.binpb", new Case(stackBomb(5000, 5000), "expand to more than"));
    cases.put("profiles-without-dictionary.binpb", new Case(profileWithoutDictionary(), "profiles without a dictionary"));
    cases.put("empty.binpb", new Case(new byte[0], "an empty file"));
    cases.put("otlp.json.binpb", new Case("{\"resourceProfiles\":[]}".getBytes(StandardCharsets.UTF_8), "JSON"));
    cases.put("pprof.pb.gz.binpb", new Case(gzip(good), "gzip data"));
    cases.put("recording.jfr.binpb", new Case("FLR\0\0\2\0\1".getBytes(StandardCharsets.ISO_8859_1), "a JFR recording"));
    return cases;
  }

  private static byte[] traceRequest() {
    Span span = Span.newBuilder().setTraceId(RequestFixture.bytes("0102030405060708090a0b0c0d0e0f10"))
        .setSpanId(RequestFixture.bytes("1112131415161718")).setName("GET /checkout")
        .setStartTimeUnixNano(1_700_000_000_000_000_000L).setEndTimeUnixNano(1_700_000_001_000_000_000L).build();
    return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
            .setValue(AnyValue.newBuilder().setStringValue("shop"))))
        .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build().toByteArray();
  }

  /** A request with one profile holding {@code sample} and an empty dictionary. */
  private static byte[] profileWithSample(Proto sample) {
    Proto profile = new Proto().message(2, sample);
    return new Proto().message(1, new Proto().message(2, new Proto().message(2, profile)))
        .message(2, new Proto()).bytes();
  }

  private static byte[] profileWithoutDictionary() {
    return new Proto().message(1, new Proto().message(2, new Proto().message(2, new Proto().message(2, new Proto()))))
        .bytes();
  }

  /**
   * A dictionary attribute whose value is an array in an array ... {@code depth} times; sizes are
   * computed from the inside out, then written from the outside in (one pass, no recursion).
   */
  static byte[] deepValue(int depth) {
    long[] anyValue = new long[depth + 1]; // anyValue[k]: size of the AnyValue k levels up
    long[] array = new long[depth + 1];
    for (int k = 1; k <= depth; k++) {
      array[k] = 1 + varintSize(anyValue[k - 1]) + anyValue[k - 1];
      anyValue[k] = 1 + varintSize(array[k]) + array[k];
    }
    Proto value = new Proto();
    for (int k = depth; k >= 1; k--) {
      value.tag(5, 2).varint(array[k]).tag(1, 2).varint(anyValue[k - 1]);
    }
    Proto attribute = new Proto().message(2, value);
    return new Proto().message(2, new Proto().message(6, attribute)).bytes();
  }

  /** One location of {@code lines} lines, and one stack that names it {@code repeats} times. */
  static byte[] stackBomb(int lines, int repeats) {
    Proto location = new Proto();
    for (int i = 0; i < lines; i++) {
      location.message(3, new Proto());
    }
    Proto stack = new Proto().tag(1, 2).varint(repeats);
    for (int i = 0; i < repeats; i++) {
      stack.raw(0);
    }
    Proto dictionary = new Proto().message(2, location).message(3, new Proto()).message(7, stack);
    return new Proto().message(2, dictionary).bytes();
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }

  private static int varintSize(long value) {
    int size = 1;
    while ((value >>>= 7) != 0) {
      size++;
    }
    return size;
  }

  /** Writes protobuf by hand, valid or not. */
  static final class Proto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Proto tag(int field, int wireType) {
      return varint((long) field << 3 | wireType);
    }

    Proto varint(long value) {
      while ((value & ~0x7FL) != 0) {
        out.write((int) (value & 0x7F) | 0x80);
        value >>>= 7;
      }
      out.write((int) value);
      return this;
    }

    Proto field(int field, long value) {
      return tag(field, 0).varint(value);
    }

    Proto message(int field, Proto body) {
      byte[] bytes = body.bytes();
      tag(field, 2).varint(bytes.length);
      out.write(bytes, 0, bytes.length);
      return this;
    }

    Proto raw(int... bytes) {
      for (int b : bytes) {
        out.write(b);
      }
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
