package io.spanflight.internal;

import java.util.Arrays;

/**
 * Which OpenTelemetry javaagent releases Spanflight runs on, and the one line it logs instead of
 * starting on an older one.
 *
 * <p>The floor is the agent 2.25.0, the first whose SDK (1.59.0) has the exporter sender SPI in
 * {@code io.opentelemetry.sdk.common.export} ({@code HttpSenderConfig}, {@code GrpcSenderConfig})
 * that profiles are sent through; 2.20.1 to 2.22.0 also lack {@code GlobalOpenTelemetry.isSet()}.
 * On 2.20.1 (SDK 1.54.1) Spanflight sampled but could not export ({@code NoClassDefFoundError})
 * and its housekeeping failed every second ({@code NoSuchMethodError}); {@code
 * AgentVersionsSmokeTest} runs the core checks on the releases at and above the floor.
 *
 * <p>The decision reads the SDK version the agent bundles ({@code OtelVersion}), what Spanflight
 * links against, so a vendor distribution with version numbers of its own is judged by its SDK;
 * the agent's version ({@code AgentVersion}) only names it in the line. Both are read by
 * reflection through the extension's class loader (whose parent is the agent's), never as
 * compile-time constants. When neither is readable (no agent, as in unit tests) Spanflight starts.
 *
 * <p>Not API: internal to Spanflight.
 */
final class SupportedAgents {
  static final String OLDEST_AGENT = "2.25.0";
  static final String OLDEST_SDK = "1.59.0";
  static final String AGENT_VERSION_CLASS = "io.opentelemetry.javaagent.tooling.AgentVersion";
  static final String SDK_VERSION_CLASS = "io.opentelemetry.sdk.common.internal.OtelVersion";

  private SupportedAgents() {}

  /** Null when Spanflight may start with the agent {@code loader} sees, else the line to log. */
  static String refusal(ClassLoader loader) {
    return refusal(versionIn(loader, AGENT_VERSION_CLASS), versionIn(loader, SDK_VERSION_CLASS));
  }

  /** Null when supported or unknown; versions may be null when unreadable. */
  static String refusal(String agentVersion, String sdkVersion) {
    boolean tooOld = sdkVersion != null
        ? isOlder(sdkVersion, OLDEST_SDK)
        : agentVersion != null && isOlder(agentVersion, OLDEST_AGENT);
    if (!tooOld) {
      return null;
    }
    return "Spanflight " + DataPath.VERSION + " is off: OpenTelemetry Java agent "
        + (agentVersion == null ? "(version unknown)" : agentVersion)
        + (sdkVersion == null ? "" : " (SDK " + sdkVersion + ")")
        + " is older than the oldest it supports, " + OLDEST_AGENT + " (SDK " + OLDEST_SDK
        + "); the application runs on with the agent alone, without profiles";
  }

  /**
   * Whether {@code version} is below {@code floor}, comparing the leading numbers ({@code 2.24.1},
   * {@code 2.26.0-SNAPSHOT}, {@code 1.58.0-alpha}); a version with no leading number is not older.
   */
  static boolean isOlder(String version, String floor) {
    int[] v = numbers(version);
    int[] f = numbers(floor);
    if (v.length == 0) {
      return false;
    }
    for (int i = 0; i < Math.max(v.length, f.length); i++) {
      int a = i < v.length ? v[i] : 0;
      int b = i < f.length ? f[i] : 0;
      if (a != b) {
        return a < b;
      }
    }
    return false;
  }

  private static int[] numbers(String version) {
    String[] parts = version.trim().split("[^0-9.]", 2)[0].split("\\.");
    int count = 0;
    int[] numbers = new int[parts.length];
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 9) {
        break;
      }
      numbers[count++] = Integer.parseInt(part);
    }
    return Arrays.copyOf(numbers, count);
  }

  /** The {@code VERSION} field of {@code className}, or null when absent or not a string. */
  static String versionIn(ClassLoader loader, String className) {
    try {
      Object value = Class.forName(className, false, loader).getField("VERSION").get(null);
      return value instanceof String s && !s.isBlank() ? s : null;
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return null;
    }
  }
}
