package io.spanflight.internal.instrumentation.bootstrap;

/**
 * The bootstrap-visible end of the virtual-thread mount/unmount hooks: advice inlined into {@code
 * java.lang.VirtualThread} can only see classes of the bootstrap class loader, so this one class is
 * appended to the bootstrap search path at startup and the extension hands it its callbacks
 * (plain {@link Runnable}s, a bootstrap type). Until then, and after {@link #clear()}, the hooks do
 * nothing.
 *
 * <p>Both callbacks run on the carrier while {@code Thread.currentThread()} is the virtual thread.
 *
 * <p>Not API: internal to Spanflight. Loaded by the bootstrap class loader; depends on nothing but
 * {@code java.base}.
 */
public final class VirtualThreadMounts {
  private static volatile Runnable onMount;
  private static volatile Runnable onUnmount;

  private VirtualThreadMounts() {}

  /** Sets the callbacks the hooks call from now on. */
  public static void set(Runnable mounted, Runnable unmounting) {
    onUnmount = unmounting;
    onMount = mounted;
  }

  /** The hooks call nothing any more. */
  public static void clear() {
    onMount = null;
    onUnmount = null;
  }

  /** Called by the advice right after {@code VirtualThread.mount()}. */
  public static void mounted() {
    Runnable callback = onMount;
    if (callback != null) {
      callback.run();
    }
  }

  /** Called by the advice at the start of {@code VirtualThread.unmount()}. */
  public static void unmounting() {
    Runnable callback = onUnmount;
    if (callback != null) {
      callback.run();
    }
  }
}
