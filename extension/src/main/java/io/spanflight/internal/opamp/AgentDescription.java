package io.spanflight.internal.opamp;

import java.util.List;

/**
 * Who the agent is, OpAMP's {@code AgentDescription}: the identifying attributes (which
 * service instance this is) and the others (versions, host). Both lists are copied; they keep
 * their order on the wire.
 *
 * <p>Not API: internal to Spanflight.
 */
public record AgentDescription(List<KeyValue> identifying, List<KeyValue> nonIdentifying) {
  public AgentDescription {
    identifying = List.copyOf(identifying);
    nonIdentifying = List.copyOf(nonIdentifying);
  }
}
