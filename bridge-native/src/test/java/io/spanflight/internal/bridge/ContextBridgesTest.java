package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Runs in every surefire execution, including the one with -Dspanflight.bridge=java. */
class ContextBridgesTest {
  private final Logger logger = Logger.getLogger("io.spanflight");
  private final List<LogRecord> logged = new ArrayList<>();
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      logged.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeEach
  void captureLog() {
    logger.addHandler(capture);
  }

  @AfterEach
  void releaseLog() {
    logger.removeHandler(capture);
  }

  private static boolean forcedByProperty() {
    return "java".equals(System.getProperty(ContextBridges.BRIDGE_PROPERTY));
  }

  @Test
  void choosesTheNativeBridgeWhereItIsBuiltUnlessForcedAndSaysSoOnce() {
    ContextBridge bridge = ContextBridges.create(1024, NativeTestSupport.nativeDirectory(), false);

    boolean nativeExpected = NativeLibrary.isPackaged() && !forcedByProperty();
    assertThat(bridge).isInstanceOf(nativeExpected ? NativeContextBridge.class : JavaContextBridge.class);
    assertThat(logged).singleElement().satisfies(record -> {
      assertThat(record.getLevel()).isEqualTo(Level.INFO);
      assertThat(record.getMessage()).contains(bridge.implementation());
      if (forcedByProperty()) {
        assertThat(record.getMessage()).contains("-Dspanflight.bridge=java");
      }
    });
  }

  @Test
  void forcingJavaGivesTheFallbackAndSaysWhy() {
    ContextBridge bridge = ContextBridges.create(16, null, true);

    assertThat(bridge).isInstanceOf(JavaContextBridge.class);
    assertThat(bridge.publishProcessContext(new byte[] {1})).isFalse();
    assertThat(logged).singleElement().satisfies(record ->
        assertThat(record.getMessage()).contains("java (no native", "forced by configuration"));
  }

  @Test
  void refusesARingCapacityThatIsNotAPowerOfTwo() {
    assertThatThrownBy(() -> ContextBridges.create(1000, null, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
  }

  @Test
  void switchesReachTheSinkInOrderThenTheThreadEnds() throws Exception {
    ContextBridge bridge = ContextBridges.create(1024, NativeTestSupport.nativeDirectory(), false);
    bridge.define(7, 0L, 0L, 0L, (byte) 0, new byte[0], ContextBridge.OWN_ATTRIBUTES);
    long thread = TestThreads.runToOsThreadExit(() -> {
      bridge.switchTo(7);
      bridge.switchTo(8);
      bridge.switchTo(0);
    });
    RecordingSink sink = new RecordingSink();
    sink.drainUntil(bridge, () -> sink.ended.contains(thread));

    assertThat(sink.eventsOf(thread)).containsExactly("7", "8", "0", "ended");
    assertThat(bridge.publishProcessContext(new byte[] {10, 0}))
        .isEqualTo(bridge instanceof NativeContextBridge);
  }
}
