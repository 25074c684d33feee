package io.spanflight.internal.profile;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.registry.ContextRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Requests encoded by Spanflight's own {@link ExportRequestEncoder} from real JFR samples, for
 * the tests of readers in other packages (the HTML report's reader: {@code
 * report.EncodedRequestDecodeTest}).
 */
public final class EncodedSamples {
  public static final String BURN_FUNCTION = JfrTestSamples.BURN_FUNCTION;
  public static final String TRACE_A = "0af7651916cd43dd8448eb211c80319c";
  public static final String SPAN_A = "b7ad6b7169203331";
  public static final String TRACE_B = "4bf92f3577b34da6a3ce929d0e0e4736";
  public static final String SPAN_B = "00f067aa0ba902b7";

  private EncodedSamples() {}

  /**
   * Records real execution samples and encodes them twice: as CPU samples (10 ms period) and as
   * allocation samples of {@code 1000 + i} bytes; sample {@code i} links to no span ({@code i % 3
   * == 0}), to span A or to span B.
   */
  public static byte[] cpuAndAllocation(Path dir) throws Exception {
    List<JfrTestSamples.Sample> samples = JfrTestSamples.record(dir);
    ContextRecord a = JfrTestSamples.span(TRACE_A, SPAN_A);
    ContextRecord b = JfrTestSamples.span(TRACE_B, SPAN_B);
    ProfileInterval interval = new ProfileInterval(EpochClock.nowNanos() - 1_000_000_000L);
    for (int i = 0; i < samples.size(); i++) {
      JfrTestSamples.Sample e = samples.get(i);
      ContextRecord link = i % 3 == 0 ? null : (i % 3 == 1 ? a : b);
      long ts = e.epochNanos();
      interval.add(SampleType.cpuSamples(Duration.ofMillis(10).toNanos()), e.stacks(), -1, e.stack(), link, ts, 1);
      interval.add(SampleType.allocatedBytes(), e.stacks(), -1, e.stack(), link, ts, 1000 + i);
    }
    Resource resource = Resource.create(Attributes.builder().put("service.name", "encoded-samples").build());
    return new ExportRequestEncoder(resource, "test").encode(interval, EpochClock.nowNanos());
  }
}
