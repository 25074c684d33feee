package io.spanflight.internal.profile;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.registry.ContextRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;

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
    List<RecordedEvent> samples = JfrTestSamples.record(dir);
    ContextRecord a = JfrTestSamples.span(TRACE_A, SPAN_A);
    ContextRecord b = JfrTestSamples.span(TRACE_B, SPAN_B);
    ProfileInterval interval = new ProfileInterval(EpochClock.nowNanos() - 1_000_000_000L);
    for (int i = 0; i < samples.size(); i++) {
      RecordedEvent e = samples.get(i);
      ContextRecord link = i % 3 == 0 ? null : (i % 3 == 1 ? a : b);
      long ts = EpochClock.toNanos(e.getStartTime());
      interval.add(SampleType.cpuSamples(Duration.ofMillis(10).toNanos()), null, e.getStackTrace(), link, ts, 1);
      interval.add(SampleType.allocatedBytes(), null, e.getStackTrace(), link, ts, 1000 + i);
    }
    Resource resource = Resource.create(Attributes.builder().put("service.name", "encoded-samples").build());
    return new ExportRequestEncoder(resource, "test").encode(interval, EpochClock.nowNanos());
  }
}
