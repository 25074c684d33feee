package io.spanflight.internal.opamp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One request of the agent to the OpAMP server, the fields of {@code AgentToServer} that
 * Spanflight sends. A null part is not sent (status compression: only what changed goes out);
 * {@code effectiveConfig} is copied in its order when given, and an empty map is sent as an empty
 * configuration. {@code instanceUid} must have 16 bytes; it is not copied.
 *
 * <p>Not API: internal to Spanflight.
 *
 * @param capabilities the {@code AgentCapabilities} bits, {@link OpampMessages#CAPABILITIES}
 * @param disconnect whether this is the last message ({@code agent_disconnect})
 * @param flags the {@code AgentToServerFlags} bits
 */
public record AgentToServer(byte[] instanceUid, long sequenceNum, AgentDescription description,
    long capabilities, ComponentHealth health, Map<String, ConfigFile> effectiveConfig,
    RemoteConfigStatus remoteConfigStatus, boolean disconnect, long flags) {
  public AgentToServer {
    Objects.requireNonNull(instanceUid, "instanceUid");
    if (instanceUid.length != OpampMessages.INSTANCE_UID_BYTES) {
      throw new IllegalArgumentException("instanceUid has " + instanceUid.length + " bytes, expected 16");
    }
    if (effectiveConfig != null) {
      effectiveConfig = Collections.unmodifiableMap(new LinkedHashMap<>(effectiveConfig));
    }
  }
}
