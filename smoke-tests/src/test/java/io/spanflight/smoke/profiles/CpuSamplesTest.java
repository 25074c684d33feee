package io.spanflight.smoke.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuSamplesTest {

  @Test
  void decodesFramesLeafFirstLinksAsHexAndCounts() {
    List<StackSample> samples = CpuSamples.decode(SampleRequests.burnAndIdle());

    assertThat(samples).containsExactly(
        new StackSample(List.of(SampleRequests.BURN, SampleRequests.HANDLER, SampleRequests.THREAD_RUN),
            new SpanLink(SampleRequests.TRACE_ID, SampleRequests.SPAN_ID), 2),
        new StackSample(List.of(SampleRequests.THREAD_RUN), null, 3));
  }

  @Test
  void leafApplicationFrameSkipsJdkFrames() {
    List<StackSample> samples = CpuSamples.decode(SampleRequests.burnAndIdle());

    assertThat(samples.get(0).leafApplicationFrame()).contains(SampleRequests.BURN);
    assertThat(samples.get(1).leafApplicationFrame()).isEmpty();
    assertThat(samples.get(0).contains(SampleRequests.HANDLER)).isTrue();
  }

  @Test
  void ignoresProfilesThatAreNotCpu() {
    ExportProfilesServiceRequest request = SampleRequests.burnAndIdle();
    ExportProfilesServiceRequest.Builder notCpu = request.toBuilder();
    notCpu.getResourceProfilesBuilder(0).getScopeProfilesBuilder(0).getProfilesBuilder(0)
        .getPeriodTypeBuilder().setTypeStrindex(1); // "samples", not "cpu"

    assertThat(CpuSamples.decode(notCpu.build())).isEmpty();
    assertThat(CpuSamples.decodeAll(List.of(request, request))).hasSize(4);
  }
}
