package io.spanflight.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.spanflight.internal.profile.EncodedSamples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's reader (module {@code report}) on what our encoder writes from real JFR samples:
 * the same values as protobuf-java reads. It lives in the extension, which has both the encoder
 * and (as the jar's assembler) the report; the report never depends on the extension. Its other
 * cases are in the report's {@link RequestDecoderTest}.
 */
class EncodedRequestDecodeTest {
  @TempDir Path dir;

  @Test
  void readsWhatOurEncoderWritesLikeTheGeneratedClasses() throws Exception {
    byte[] bytes = EncodedSamples.cpuAndAllocation(dir);
    ExportProfilesServiceRequest oracle = ExportProfilesServiceRequest.parseFrom(bytes);

    ProfilesRequest decoded = RequestDecoder.decode(bytes);

    assertThat(decoded.resource).containsEntry("service.name", "encoded-samples");
    RequestDecoderTest.assertSameAsOracle(decoded, oracle);
    List<String> leaves = new ArrayList<>();
    ProfilesRequest.Profile cpu = decoded.profiles.get(0);
    for (int i = 0; i < cpu.sampleCount; i++) {
      leaves.add(RequestDecoderTest.frames(decoded.dictionary, cpu.stack[i]).get(0));
    }
    assertThat(leaves).contains(EncodedSamples.BURN_FUNCTION);
    assertThat(cpu.type + "/" + cpu.unit + " " + cpu.periodType + "/" + cpu.periodUnit + " " + cpu.period)
        .isEqualTo("samples/count cpu/nanoseconds 10000000");
  }
}
