package io.spanflight.internal.opamp;

import io.spanflight.internal.config.Redacted;
import io.spanflight.internal.config.RemoteSettings;
import io.spanflight.internal.config.SettingsLayers;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The remote configurations a server offers, each taken once (by its hash): read from the config
 * map's {@value #ENTRY} entry ({@code otel.spanflight.<key>=<value>} lines, see {@link
 * RemoteSettings}), checked against the local limits and the readers, and put in force whole
 * ({@code APPLIED}) or not at all ({@code FAILED}, with every bad line's message). An empty
 * config map puts the local settings back. Also ends a configuration's time box.
 *
 * <p>Not API: internal to Spanflight.
 */
final class RemoteConfigs {
  /** The config map's entry that holds Spanflight's settings. */
  static final String ENTRY = "spanflight";
  /** The content types the entry may declare: none, or plain text. */
  static final List<String> CONTENT_TYPES = List.of("", "text/plain", "text/x-java-properties");
  /** The longest error text reported to the server. */
  static final int MAX_ERROR_CHARS = 4096;
  private static final Logger logger = Logger.getLogger("io.spanflight");

  private final OpampClient.Agent agent;
  private final Clock clock;
  private byte[] lastHash;
  private RemoteConfigStatus status;

  RemoteConfigs(OpampClient.Agent agent, Clock clock) {
    this.agent = agent;
    this.clock = clock;
  }

  /** The status of the last configuration offered, or null before the first. */
  RemoteConfigStatus status() {
    return status;
  }

  /** Takes {@code offered} unless it was taken already; true when the status changed. */
  boolean offer(AgentRemoteConfig offered) {
    byte[] hash = offered.configHash() == null ? new byte[0] : offered.configHash();
    if (lastHash != null && Arrays.equals(hash, lastHash)) {
      return false;
    }
    lastHash = hash;
    List<String> errors = new ArrayList<>();
    RemoteSettings settings = settingsOf(offered.config(), errors);
    // the lines that parsed are checked (readers, limits) even when others did not: every message at once
    SettingsLayers.Proposal proposal = agent.layers().proposeRemote(settings, clock.instant());
    errors.addAll(proposal.errors());
    if (errors.isEmpty()) {
      errors.addAll(agent.apply(proposal, "remote configuration"));
    }
    String name = OpampClient.shortHash(hash);
    if (errors.isEmpty()) {
      status = new RemoteConfigStatus(hash, RemoteConfigStatus.APPLIED, "");
      logger.info("Spanflight fleet control (OpAMP): remote configuration " + name + " applied"
          + (settings.values().isEmpty() ? " (no remote settings: the local ones are in force)" : ""));
    } else {
      String text = String.join("; ", errors);
      text = text.length() <= MAX_ERROR_CHARS ? text : text.substring(0, MAX_ERROR_CHARS - 3) + "...";
      status = new RemoteConfigStatus(hash, RemoteConfigStatus.FAILED, text);
      logger.warning("Spanflight fleet control (OpAMP): remote configuration " + name
          + " refused, nothing changed: " + text);
    }
    return true;
  }

  /** The settings in the config map; each problem adds one message to {@code errors}. */
  static RemoteSettings settingsOf(Map<String, ConfigFile> configMap, List<String> errors) {
    if (configMap == null || configMap.isEmpty()) {
      return RemoteSettings.NONE;
    }
    for (String name : configMap.keySet()) {
      if (!name.equals(ENTRY)) {
        errors.add("config entry '" + Redacted.oneLine(name)
            + "' is not Spanflight's: its settings go in the entry '" + ENTRY + "'");
      }
    }
    ConfigFile file = configMap.get(ENTRY);
    if (file == null || !errors.isEmpty()) {
      return RemoteSettings.NONE;
    }
    String type = file.contentType() == null ? "" : file.contentType().trim();
    if (!CONTENT_TYPES.contains(type)) {
      errors.add("content type '" + Redacted.oneLine(type)
          + "' of entry '" + ENTRY + "': expected text/plain or text/x-java-properties");
      return RemoteSettings.NONE;
    }
    return RemoteSettings.parse(file.body() == null ? new byte[0] : file.body(), errors);
  }

  /** Once the remote settings' time box has ended: the local settings (and the MBean's) come back. */
  void endTimeBoxIfDue() {
    Instant until = agent.layers().remoteUntil();
    Instant now = clock.instant();
    if (until == null || now.isBefore(until)) {
      return;
    }
    List<String> errors =
        agent.apply(agent.layers().proposeRemote(RemoteSettings.NONE, now), "the end of a remote time box");
    if (errors.isEmpty()) {
      logger.info("Spanflight fleet control (OpAMP): the remote settings' time box ended at " + until
          + "; the local settings are in force again");
    } else {
      logger.warning("Spanflight fleet control (OpAMP): the local settings could not come back at the end of the"
          + " time box: " + String.join("; ", errors));
    }
  }
}
