package io.spanflight.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.common.internal.OtelVersion;
import org.junit.jupiter.api.Test;

/**
 * The release floor: decided by the agent's SDK, named by the agent's version, and unknown
 * versions let Spanflight start. The real agents are run by {@code AgentVersionsSmokeTest}.
 */
class SupportedAgentsTest {

  @Test
  void anAgentBelowTheFloorIsRefusedInOneLineNamingBothVersions() {
    String line = SupportedAgents.refusal("2.20.1", "1.54.1");

    assertThat(line).contains("OpenTelemetry Java agent 2.20.1 (SDK 1.54.1)", "oldest it supports, 2.25.0 (SDK 1.59.0)",
        "the application runs on").doesNotContain("\n");
  }

  @Test
  void theFloorAndNewerStart() {
    assertThat(SupportedAgents.refusal("2.25.0", "1.59.0")).isNull();
    assertThat(SupportedAgents.refusal("2.33.1", "1.67.0")).isNull();
    assertThat(SupportedAgents.refusal("3.0.0", "2.0.0")).isNull();
  }

  @Test
  void theSdkDecidesWhenBothAreKnown() {
    // a vendor distribution numbered on its own: judged by the SDK it bundles
    assertThat(SupportedAgents.refusal("1.4.0", "1.60.0")).isNull();
    assertThat(SupportedAgents.refusal("9.0.0", "1.58.0")).contains("agent 9.0.0 (SDK 1.58.0)");
  }

  @Test
  void theAgentDecidesWithoutAnSdkVersionAndNothingDecidesWithNeither() {
    assertThat(SupportedAgents.refusal("2.24.0", null)).contains("agent 2.24.0 is older");
    assertThat(SupportedAgents.refusal("2.26.0-SNAPSHOT", null)).isNull();
    assertThat(SupportedAgents.refusal(null, null)).isNull();
  }

  @Test
  void versionsCompareByTheirLeadingNumbers() {
    assertThat(SupportedAgents.isOlder("1.58.0-alpha", "1.59.0")).isTrue();
    assertThat(SupportedAgents.isOlder("1.59", "1.59.0")).isFalse();
    assertThat(SupportedAgents.isOlder("1.59.1", "1.59.0")).isFalse();
    assertThat(SupportedAgents.isOlder("1.100.0", "1.59.0")).isFalse();
    assertThat(SupportedAgents.isOlder("dev", "1.59.0")).isFalse();
  }

  @Test
  void theVersionsOfTheSdkOnTheClassPathAreRead() {
    // the SDK the tests run with is readable and supported; there is no agent here
    ClassLoader loader = SupportedAgentsTest.class.getClassLoader();
    assertThat(SupportedAgents.versionIn(loader, SupportedAgents.SDK_VERSION_CLASS))
        .isEqualTo(OtelVersion.VERSION);
    assertThat(SupportedAgents.versionIn(loader, SupportedAgents.AGENT_VERSION_CLASS)).isNull();
    assertThat(SupportedAgents.refusal(loader)).isNull();
  }
}
