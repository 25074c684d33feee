package io.spanflight.internal.bridge;

import java.nio.file.Path;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Chooses the bridge: the native one where libspanflight.so loads (Linux x86_64), else the
 * pure-Java {@link JavaContextBridge}. Says which, and why, in one INFO line.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContextBridges {
  /** Default entries per thread ring ({@code otel.spanflight.timeline.ring.size}). */
  public static final int DEFAULT_RING_CAPACITY = 1024;

  /** System property that forces the pure-Java bridge when set to {@code java}. */
  public static final String BRIDGE_PROPERTY = "spanflight.bridge";

  private static final Logger logger = Logger.getLogger("io.spanflight");

  private ContextBridges() {}

  /**
   * Creates the process's bridge. Call once per process: the native state is per process.
   *
   * @param ringCapacity entries per thread ring, a power of two of at least 2
   * @param nativeDirectory the root of the private directory the library is extracted to (see
   *     {@link PrivateDirectory}); null for {@code java.io.tmpdir}
   * @param forceJava use the pure-Java bridge even where the native one would load
   * @throws IllegalArgumentException if {@code ringCapacity} is not a power of two of at least 2
   */
  public static ContextBridge create(int ringCapacity, Path nativeDirectory, boolean forceJava) {
    if (ringCapacity < 2 || Integer.bitCount(ringCapacity) != 1) {
      throw new IllegalArgumentException(
          "ring capacity must be a power of two >= 2, was " + ringCapacity);
    }
    String whyNot = whyNotNative(nativeDirectory, forceJava);
    ContextBridge bridge = null;
    if (whyNot == null) {
      try {
        bridge = new NativeContextBridge(ringCapacity);
      } catch (IllegalStateException e) {
        whyNot = e.getMessage();
      }
    }
    if (bridge == null) {
      bridge = new JavaContextBridge(ringCapacity);
    }
    // A refused native directory is a configuration error: said louder than a missing library.
    logger.log(
        whyNot != null && whyNot.startsWith(PrivateDirectory.CONFIGURATION_KEY) ? Level.WARNING : Level.INFO,
        "Spanflight context bridge: "
            + bridge.implementation()
            + (whyNot == null ? "" : "; native bridge not used: " + whyNot));
    return bridge;
  }

  /** Null if the native bridge should be tried, else why not. */
  private static String whyNotNative(Path nativeDirectory, boolean forceJava) {
    if (forceJava) {
      return "the Java bridge is forced by configuration";
    }
    if ("java".equalsIgnoreCase(System.getProperty(BRIDGE_PROPERTY))) {
      return "the Java bridge is forced by -D" + BRIDGE_PROPERTY + "=java";
    }
    if (!isLinuxX8664()) {
      return "no native library for "
          + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
    return NativeLibrary.load(nativeDirectory);
  }

  static boolean isLinuxX8664() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    return os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
  }
}
