package io.spanflight.internal;

import io.spanflight.internal.bridge.TimelineSink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A bridge whose next drain replays scripted calls into the sink (as rings would deliver them). */
public class ScriptedBridge extends TestBridge {
  private final List<Consumer<TimelineSink>> script = new ArrayList<>();
  private final boolean sharedRings;

  public ScriptedBridge() {
    this(false);
  }

  /** @param sharedRings rings per OS thread, shared by the virtual threads mounted there */
  public ScriptedBridge(boolean sharedRings) {
    this.sharedRings = sharedRings;
  }

  /** Delivered by the next drain. */
  public synchronized void then(Consumer<TimelineSink> step) {
    script.add(step);
  }

  @Override
  public synchronized void drain(TimelineSink sink) {
    script.forEach(step -> step.accept(sink));
    script.clear();
  }

  @Override
  public boolean hasThreadRecord() {
    return sharedRings;
  }
}
