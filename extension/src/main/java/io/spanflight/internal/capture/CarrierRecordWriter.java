package io.spanflight.internal.capture;

import io.opentelemetry.context.Context;
import io.spanflight.internal.bridge.ContextBridge;
import io.spanflight.internal.registry.ContextRegistry;

/**
 * What a virtual-thread carrier's OTEP-4947 record shows: the mounted virtual thread's context
 * during each mounted stretch, and no context otherwise. Called by the mount/unmount hooks of the
 * instrumentation module, on the carrier, while {@code Thread.currentThread()} is the virtual
 * thread; writes only the record (the timeline is keyed by the virtual thread and does not change
 * at a mount).
 *
 * <p>Runs inside {@code VirtualThread.mount()/unmount()}: it must not block, park, allocate or
 * throw; one context lookup and one bridge call. The hooks stay installed while profiling is
 * switched off ({@link #stop}): they then return at once, interning nothing and writing no record.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class CarrierRecordWriter {
  private final SwitchRecorder recorder;
  private final ContextBridge bridge;
  private final Runnable onMount = this::mounted;
  private final Runnable onUnmount = this::unmounting;
  private volatile boolean recording;

  public CarrierRecordWriter(SwitchRecorder recorder, ContextBridge bridge) {
    this.recorder = recorder;
    this.bridge = bridge;
  }

  /**
   * Runs both callbacks once on the calling (platform, context-free) thread, so that every class
   * they need is loaded and initialised before they first run inside a mount.
   */
  public void prepare() {
    showCurrent();
    bridge.showOnRecord(ContextRegistry.NO_CONTEXT);
  }

  /** From now on, mounts and unmounts write carriers' records. */
  public void start() {
    recording = true;
  }

  /** From now on, mounts and unmounts do nothing (profiling is off). */
  public void stop() {
    recording = false;
  }

  /** Right after a mount: the carrier shows the virtual thread's current context. */
  void mounted() {
    if (recording) {
      showCurrent();
    }
  }

  private void showCurrent() {
    bridge.showOnRecord(recorder.idOf(Context.current()));
  }

  /** At the start of an unmount: the carrier shows no context. */
  void unmounting() {
    if (recording) {
      bridge.showOnRecord(ContextRegistry.NO_CONTEXT);
    }
  }

  /** {@link #mounted()} as the bootstrap-visible callback type the hook holder takes. */
  public Runnable onMount() {
    return onMount;
  }

  /** {@link #unmounting()} as the bootstrap-visible callback type the hook holder takes. */
  public Runnable onUnmount() {
    return onUnmount;
  }
}
