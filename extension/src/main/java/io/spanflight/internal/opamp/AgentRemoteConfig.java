package io.spanflight.internal.opamp;

import java.util.Map;

/**
 * A configuration the server offers, OpAMP's {@code AgentRemoteConfig}: files by name, in the
 * order they came, and the hash that names this configuration (not copied). An empty map means
 * "no remote configuration".
 *
 * <p>Not API: internal to Spanflight.
 */
public record AgentRemoteConfig(Map<String, ConfigFile> config, byte[] configHash) {}
