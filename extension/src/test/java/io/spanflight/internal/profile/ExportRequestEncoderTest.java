package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.format.Hex;
import io.spanflight.internal.registry.ContextRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encodes real JFR samples and checks the bytes with the official generated classes: they parse,
 * re-serialize to the same bytes, and follow the dictionary rules of DESIGN.md section 5.
 */
class ExportRequestEncoderTest {
  private static final long PERIOD_NANOS = Duration.ofMillis(10).toNanos();
  private static List<JfrTestSamples.Sample> samples;

  @TempDir static Path dir;

  @BeforeAll
  static void recordSamples() throws Exception {
    samples = JfrTestSamples.record(dir);
  }


  private static ExportProfilesServiceRequest encodeAll(ProfileInterval interval) throws Exception {
    return encodeAll(interval, EpochClock.nowNanos());
  }

  private static ExportProfilesServiceRequest encodeAll(ProfileInterval interval, long endEpochNanos)
      throws Exception {
    Resource resource =
        Resource.create(
            Attributes.builder()
                .put("service.name", "encoder-test")
                .put(AttributeKey.longKey("answer"), 42L)
                .put(AttributeKey.booleanKey("flag"), false)
                .put(AttributeKey.stringArrayKey("list"), Arrays.asList("a", ""))
                .build());
    byte[] bytes = new ExportRequestEncoder(resource, "test").encode(interval, endEpochNanos);
    ExportProfilesServiceRequest parsed = ExportProfilesServiceRequest.parseFrom(bytes);
    assertThat(parsed.toByteArray()).as("byte-identical to protobuf-java").isEqualTo(bytes);
    assertThat(parsed.getSerializedSize()).isEqualTo(bytes.length);
    return parsed;
  }

  @Test
  void encodesSamplesLinksAndDictionaryThatTheOfficialClassesAccept() throws Exception {
    ContextRecord a = JfrTestSamples.span("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    ContextRecord b = JfrTestSamples.span("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    ProfileInterval interval = new ProfileInterval(EpochClock.nowNanos() - 1_000_000_000L);
    for (int i = 0; i < samples.size(); i++) {
      JfrTestSamples.Sample e = samples.get(i);
      ContextRecord link = i % 3 == 0 ? null : (i % 3 == 1 ? a : b);
      long ts = e.epochNanos();
      interval.add(SampleType.cpuSamples(PERIOD_NANOS), e.stacks(), -1, e.stack(), link, ts, 1);
      interval.add(SampleType.allocatedBytes(), e.stacks(), -1, e.stack(), link, ts, 1000 + i);
    }

    ExportProfilesServiceRequest request = encodeAll(interval);

    assertThat(request.getResourceProfilesCount()).isEqualTo(1);
    assertThat(request.getResourceProfiles(0).getResource().getAttributesList())
        .anySatisfy(
            kv -> {
              assertThat(kv.getKey()).isEqualTo("service.name");
              assertThat(kv.getValue().getStringValue()).isEqualTo("encoder-test");
            });
    assertThat(request.getResourceProfiles(0).getScopeProfiles(0).getProfilesCount()).isEqualTo(2);
    Profile profile = request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0);
    Profile allocation = request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(1);
    ProfilesDictionary d = request.getDictionary();
    assertThat(d.getStringTable(allocation.getSampleType().getTypeStrindex())).isEqualTo("alloc_space");
    assertThat(d.getStringTable(allocation.getSampleType().getUnitStrindex())).isEqualTo("bytes");
    assertThat(allocation.hasPeriodType()).isFalse();
    long bytes = allocation.getSamplesList().stream().flatMap(s -> s.getValuesList().stream()).mapToLong(v -> v).sum();
    long expectedBytes = 0;
    for (int i = 0; i < samples.size(); i++) {
      expectedBytes += 1000 + i;
    }
    assertThat(bytes).isEqualTo(expectedBytes);
    assertThat(d.getStringTable(profile.getSampleType().getTypeStrindex())).isEqualTo("samples");
    assertThat(d.getStringTable(profile.getSampleType().getUnitStrindex())).isEqualTo("count");
    assertThat(d.getStringTable(profile.getPeriodType().getTypeStrindex())).isEqualTo("cpu");
    assertThat(d.getStringTable(profile.getPeriodType().getUnitStrindex())).isEqualTo("nanoseconds");
    assertThat(profile.getPeriod()).isEqualTo(PERIOD_NANOS);
    assertThat(profile.getProfileId().size()).isEqualTo(16);

    long total = 0;
    Set<String> linkedSpans = new HashSet<>();
    boolean sawBurn = false;
    for (Sample s : profile.getSamplesList()) {
      assertThat(s.getValuesCount()).isEqualTo(s.getTimestampsUnixNanoCount());
      assertThat(s.getValuesList()).containsOnly(1L);
      for (long ts : s.getTimestampsUnixNanoList()) {
        assertThat(ts).isBetween(profile.getTimeUnixNano(), profile.getTimeUnixNano() + profile.getDurationNano() - 1);
      }
      total += s.getValuesCount();
      if (s.getLinkIndex() != 0) {
        linkedSpans.add(Hex.of(d.getLinkTable(s.getLinkIndex()).getSpanId().toByteArray()));
      }
      List<Integer> stack = d.getStackTable(s.getStackIndex()).getLocationIndicesList();
      assertThat(stack).isNotEmpty();
      String leafName =
          d.getStringTable(d.getFunctionTable(d.getLocationTable(stack.get(0)).getLines(0).getFunctionIndex()).getNameStrindex());
      sawBurn |= leafName.equals(JfrTestSamples.BURN_FUNCTION);
    }
    assertThat(total).isEqualTo(samples.size());
    assertThat(linkedSpans).containsExactlyInAnyOrder("b7ad6b7169203331", "00f067aa0ba902b7");
    assertThat(sawBurn).as("a leaf frame in the burn method").isTrue();
    DictionaryRules.check(d);
  }

  @Test
  void contextAttributesBecomeSampleAttributesAndUnsampledSpansCanStayUnlinked() throws Exception {
    ContextRecord checkout = JfrTestSamples.spanWithRoute("/checkout", true);
    ContextRecord search = JfrTestSamples.spanWithRoute("/search", false);
    ProfileInterval interval = new ProfileInterval(EpochClock.nowNanos() - 1_000_000_000L, false);
    for (int i = 0; i < samples.size(); i++) {
      JfrTestSamples.Sample e = samples.get(i);
      interval.add(SampleType.cpuSamples(PERIOD_NANOS), e.stacks(), -1, e.stack(), i % 2 == 0 ? checkout : search,
          e.epochNanos(), 1);
    }

    ExportProfilesServiceRequest request = encodeAll(interval);
    ProfilesDictionary d = request.getDictionary();
    DictionaryRules.check(d);
    Set<String> seen = new HashSet<>();
    for (Sample s : request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamplesList()) {
      StringBuilder attributes = new StringBuilder();
      for (int index : s.getAttributeIndicesList()) {
        var kv = d.getAttributeTable(index);
        attributes.append(d.getStringTable(kv.getKeyStrindex())).append('=').append(kv.getValue().getStringValue()).append(' ');
      }
      String linked = s.getLinkIndex() == 0 ? "unlinked" : "linked";
      seen.add(attributes + linked);
    }
    // the unsampled span's samples keep their attributes but carry no link (setting off)
    assertThat(seen)
        .containsExactlyInAnyOrder(
            "http.route=/checkout http.request.method=GET linked", "http.route=/search http.request.method=GET unlinked");
  }

  @Test
  void aStackWithoutFramesIsTheZeroStack() {
    DictionaryBuilder d = new DictionaryBuilder();
    assertThat(d.stack(new int[0])).isZero();
    assertThat(d.stacks.size()).isEqualTo(1);
  }

  @Test
  void fileNamesAreDerivedFromTheOuterClass() {
    assertThat(DictionaryBuilder.sourceFileOf("com.example.Outer$Inner")).isEqualTo("Outer.java");
    assertThat(DictionaryBuilder.sourceFileOf("com.example.Outer$$Lambda/0x0000000801001234"))
        .isEqualTo("Outer.java");
    assertThat(DictionaryBuilder.sourceFileOf("Plain")).isEqualTo("Plain.java");
  }

  @Test
  void anIntervalEmptiedForReuseEncodesExactlyAsANewOne() throws Exception {
    ContextRecord a = JfrTestSamples.span("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    ContextRecord b = JfrTestSamples.span("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    long start = EpochClock.nowNanos() - 1_000_000_000L;
    ProfileInterval reused = new ProfileInterval(start - 5_000_000_000L);
    for (int i = 0; i < samples.size(); i++) { // a first interval: two types, both spans
      JfrTestSamples.Sample e = samples.get(i);
      long ts = e.epochNanos();
      reused.add(SampleType.allocatedBytes(), e.stacks(), -1, e.stack(), i % 2 == 0 ? a : b, ts, 1000 + i);
      reused.add(SampleType.cpuSamples(PERIOD_NANOS), e.stacks(), -1, e.stack(), a, ts, 1);
    }
    encodeAll(reused);
    assertThat(reused.reusable()).isTrue();

    reused.empty();
    reused.startAt(start);
    ProfileInterval fresh = new ProfileInterval(start);
    for (int i = 0; i < samples.size(); i += 2) { // the next: one type, one span, half the samples
      JfrTestSamples.Sample e = samples.get(i);
      long ts = e.epochNanos();
      for (ProfileInterval interval : List.of(reused, fresh)) {
        interval.add(SampleType.cpuSamples(PERIOD_NANOS), e.stacks(), -1, e.stack(), b, ts, 1);
      }
    }

    assertThat(reused.sampleCount()).isEqualTo(fresh.sampleCount()).isPositive();
    long end = EpochClock.nowNanos();
    assertThat(withoutProfileIds(encodeAll(reused, end))).isEqualTo(withoutProfileIds(encodeAll(fresh, end)));
  }

  @Test
  void theCollectorHandsOutAnExportedIntervalAgainEmptied() {
    ProfileCollector collector = new ProfileCollector();
    JfrTestSamples.Sample e = samples.get(0);
    collector.add(SampleType.allocatedBytes(), e.stacks(), -1, e.stack(), null, e.epochNanos(), 7);
    ProfileInterval first = collector.takeInterval();
    collector.recycle(first);
    ProfileInterval second = collector.takeInterval();
    assertThat(second.sampleCount()).isZero();
    assertThat(collector.takeInterval()).as("the recycled one, emptied").isSameAs(first);
    assertThat(first.sampleCount()).isZero();
    assertThat(first.tables).isEmpty();
  }

  private static ExportProfilesServiceRequest withoutProfileIds(ExportProfilesServiceRequest request) {
    ExportProfilesServiceRequest.Builder builder = request.toBuilder();
    builder.getResourceProfilesBuilderList().forEach(r -> r.getScopeProfilesBuilderList()
        .forEach(s -> s.getProfilesBuilderList().forEach(Profile.Builder::clearProfileId)));
    return builder.build();
  }
}
