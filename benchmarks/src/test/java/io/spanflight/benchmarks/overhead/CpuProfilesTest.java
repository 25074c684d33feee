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
      "[http-nio-8080-exec-2 tid=102];io/spanflight/internal/instrumentation/ContextRunnable.run;org/app/Task.run;"
          + "java/util/HashMap.put 30",
      "[http-nio-8080-exec-2 tid=102];org/app/Task.run;io/spanflight/internal/registry/ContextRegistry.intern;"
          + "java/util/HashMap.resize;__memcpy 2",
      "[spanflight-drain tid=7];java/lang/Thread.run;io/spanflight/internal/jfr/chunk/ChunkReader.read 3",
      "[C2 CompilerThread0 tid=9];Compile::Compile 40",
      "[GC Thread#0 tid=5];G1ParTask::work 11",
      "not a stack line");

  @Test
  void countsSamplesWithSpanflightFramesPerGroupOfThreads() {
    CpuProfiles.Shares shares = CpuProfiles.Shares.of(COLLAPSED);

    assertThat(shares.total()).isEqualTo(232);
    assertThat(shares.spanflight()).isEqualTo(11);
    // ours: the switch and the interning (with the JDK code it calls); not the demo's code, nor the
    // application's task under our wrapper
    assertThat(shares.samples().get("application")).containsExactly(178, 8);
    assertThat(shares.samples().get("spanflight")).containsExactly(3, 3);
    assertThat(shares.samples().get("jit")).containsExactly(40, 0);
    assertThat(shares.samples().get("gc")).containsExactly(11, 0);
    assertThat(shares.describe()).isEqualTo("Spanflight frames 4.74 % of 232 CPU samples (application 3.45, spanflight 1.29)");
  }

  @Test
  void describesAnEmptyProfile() {
    assertThat(CpuProfiles.Shares.of(List.of()).describe()).isEqualTo("no CPU samples");
  }
}
