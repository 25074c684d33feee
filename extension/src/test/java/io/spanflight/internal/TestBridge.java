package io.spanflight.internal;

import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.bridge.TimelineSink;

/** A bridge for tests that does nothing; tests override the calls they observe or script. */
public class TestBridge implements ContextBridge {

  @Override
  public void define(int contextId, byte[] traceId, byte[] spanId, byte flags, byte[] attributes) {}

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
