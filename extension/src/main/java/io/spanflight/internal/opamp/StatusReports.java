package io.spanflight.internal.opamp;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;

/**
 * OpAMP's status compression: each message carries only the statuses (description, health,
 * effective configuration, remote configuration status) that changed since the last message the
 * server received, or all of them after {@link #reportAll()} (the first message, the server's
 * ReportFullState, a failed exchange, a new instance id). A status counts as received once the
 * server answered the message that carried it ({@link #delivered}).
 *
 * <p>Not API: internal to Spanflight.
 */
final class StatusReports {
  private final OpampClient.Agent agent;
  private final Clock clock;
  private final long startNanos;
  private long sequence;
  private boolean all = true;
  private AgentDescription sentDescription;
  private ComponentHealth sentHealth;
  private String sentConfig;
  private RemoteConfigStatus sentStatus;
  /** What the message on its way carries: received once the server answered it. */
  private AgentDescription sendingDescription;
  private ComponentHealth sendingHealth;
  /** When the health last changed, as far as the client saw it. */
  private long healthSince;

  StatusReports(OpampClient.Agent agent, Clock clock) {
    this.agent = agent;
    this.clock = clock;
    this.startNanos = clock.millis() * 1_000_000L;
  }

  /** The next message sends every status again. */
  void reportAll() {
    all = true;
  }

  /** The next message: what changed since the server last received a message, or everything. */
  AgentToServer next(byte[] uid, long capabilities, RemoteConfigStatus status, boolean disconnect) {
    AgentDescription description = agent.description();
    ComponentHealth health = agent.health();
    String config = agent.effectiveConfig();
    long nowNanos = clock.millis() * 1_000_000L;
    if (!health.equals(sentHealth) && !health.equals(sendingHealth)) {
      healthSince = nowNanos;
    }
    sendingDescription = description;
    sendingHealth = health;
    ComponentHealth timed = new ComponentHealth(health.healthy(), startNanos, health.lastError(), health.status(),
        healthSince == 0 ? nowNanos : healthSince, health.components());
    return new AgentToServer(uid, sequence + 1, all || !description.equals(sentDescription) ? description : null,
        capabilities, all || !health.equals(sentHealth) ? timed : null,
        all || !config.equals(sentConfig)
            ? Map.of(RemoteConfigs.ENTRY, new ConfigFile(config.getBytes(StandardCharsets.UTF_8), "text/plain"))
            : null,
        status != null && (all || !sameStatus(status, sentStatus)) ? status : null, disconnect, 0);
  }

  /** The server answered {@code message}: what it carried need not be sent again. */
  void delivered(AgentToServer message) {
    sequence = message.sequenceNum();
    all = false;
    sentDescription = sendingDescription;
    sentHealth = sendingHealth;
    if (message.effectiveConfig() != null) {
      sentConfig = new String(message.effectiveConfig().get(RemoteConfigs.ENTRY).body(), StandardCharsets.UTF_8);
    }
    if (message.remoteConfigStatus() != null) {
      sentStatus = message.remoteConfigStatus();
    }
  }

  private static boolean sameStatus(RemoteConfigStatus a, RemoteConfigStatus b) {
    return b != null && a.status() == b.status() && Arrays.equals(a.lastRemoteConfigHash(), b.lastRemoteConfigHash())
        && a.errorMessage().equals(b.errorMessage());
  }
}
