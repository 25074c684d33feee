package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuProfilesTest {
  private static final List<String> COLLAPSED = List.of(
      "[http-nio-8080-exec-1 tid=101];java/lang/Thread.run;org/app/Handler.handle 90",
      "[http-nio-8080-exec-1 tid=101];java/lang/Thread.run;io/spanflight/internal/capture/SpanflightContextStorage.attach;"
          + "sf_switch 6",
      "[http-nio-8080-exec-2 tid=102];java/lang/Thread.run;io/spanflight/demo/service/PriceCalculator.computePrices 50",
      "[spanflight-drain tid=7];java/lang/Thread.run;io/spanflight/internal/jfr/chunk/ChunkReader.read 3",
      "[C2 CompilerThread0 tid=9];Compile::Compile 40",
      "[GC Thread#0 tid=5];G1ParTask::work 11",
      "not a stack line");

  @Test
  void countsSamplesWithSpanflightFramesPerGroupOfThreads() {
    CpuProfiles.Shares shares = CpuProfiles.Shares.of(COLLAPSED);

    assertThat(shares.total()).isEqualTo(200);
    assertThat(shares.spanflight()).isEqualTo(9);
    assertThat(shares.samples().get("application")).containsExactly(146, 6); // the demo's own code is not ours
    assertThat(shares.samples().get("spanflight")).containsExactly(3, 3);
    assertThat(shares.samples().get("jit")).containsExactly(40, 0);
    assertThat(shares.samples().get("gc")).containsExactly(11, 0);
    assertThat(shares.describe()).isEqualTo("Spanflight frames 4.50 % of 200 CPU samples (application 3.00, spanflight 1.50)");
  }

  @Test
  void describesAnEmptyProfile() {
    assertThat(CpuProfiles.Shares.of(List.of()).describe()).isEqualTo("no CPU samples");
  }
}
