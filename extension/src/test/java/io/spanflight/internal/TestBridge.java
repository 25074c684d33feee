package io.spanflight.internal;

import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.TimelineSink;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bridge for tests that only remembers the record attributes each id was defined with; tests
 * override the calls they observe or script.
 */
public class TestBridge implements ContextBridge {
  private final Map<Integer, byte[]> attributes = new ConcurrentHashMap<>();
  private final Map<Integer, Integer> attributeSets = new ConcurrentHashMap<>();

  @Override
  public void define(
      int contextId, long traceIdHigh, long traceIdLow, long spanId, byte flags, byte[] attributes, int attributeSet) {
    this.attributes.put(contextId, attributes.clone());
    this.attributeSets.put(contextId, attributeSet);
  }

  /** The record attributes of the latest definition of {@code contextId}, or null. */
  public byte[] attributesOf(int contextId) {
    return attributes.get(contextId);
  }

  /** The attribute set number of the latest definition of {@code contextId}, or null. */
  public Integer attributeSetOf(int contextId) {
    return attributeSets.get(contextId);
  }

  @Override
  public boolean publishProcessContext(byte[] payload) {
    return false;
  }

  @Override
  public void switchTo(int contextId) {}

  @Override
  public void drain(TimelineSink sink) {}

  @Override
  public String implementation() {
    return getClass().getSimpleName();
  }
}
