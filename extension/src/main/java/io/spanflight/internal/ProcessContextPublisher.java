package io.spanflight.internal;

import io.opentelemetry.sdk.resources.Resource;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.profile.ProcessContextEncoder;
import io.spanflight.internal.registry.AttributeKeyMap;
import io.spanflight.internal.registry.ContextAttributes;

/**
 * The OTEP-4719 process context, for profilers outside the JVM: the resource and the attribute key
 * map of the OTEP-4947 records. Published at start, and again by the run's housekeeping whenever
 * a key was added to the map.
 *
 * <p>Not API: internal to Spanflight.
 */
final class ProcessContextPublisher {
  private final Resource resource;
  private final ContextAttributes attributes;
  private final ContextBridge bridge;
  /** The key-map version last published (agent thread at start, then the housekeeping thread). */
  private int publishedKeyMap = -1;

  ProcessContextPublisher(Resource resource, ContextAttributes attributes, ContextBridge bridge) {
    this.resource = resource;
    this.attributes = attributes;
    this.bridge = bridge;
  }

  /** Publishes the resource and the key map, unless this version of the map is out already. */
  void publish() {
    AttributeKeyMap keyMap = attributes.keyMap();
    int version = keyMap.version();
    if (version != publishedKeyMap) {
      publishedKeyMap = version;
      bridge.publishProcessContext(ProcessContextEncoder.encode(resource, keyMap.keys()));
    }
  }
}
