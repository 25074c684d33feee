package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;

/** The native bridge for tests; skips the calling test where this build has no library. */
final class NativeTestSupport {
  static final int RING_CAPACITY = 1024;

  private static NativeContextBridge bridge;

  private NativeTestSupport() {}

  static synchronized NativeContextBridge bridge() {
    assumeTrue(
        NativeLibrary.isPackaged(),
        "native test skipped: libspanflight.so is only built on Linux x86_64 with gcc");
    if (bridge == null) {
      // Built for this platform, so it must load: a failure here is a bug, not a reason to skip.
      assertThat(NativeLibrary.load(nativeDirectory())).as("loading libspanflight.so").isNull();
      bridge = new NativeContextBridge(RING_CAPACITY);
    }
    return bridge;
  }

  /** Where tests extract the library (set by the build), else java.io.tmpdir. */
  static Path nativeDirectory() {
    String dir = System.getProperty("spanflight.test.native.dir");
    return dir == null ? null : Path.of(dir);
  }
}
