package io.spanflight.internal.instrumentation;

import io.spanflight.internal.instrumentation.bootstrap.VirtualThreadMounts;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Modifier;
import java.nio.file.Path;

/**
 * Installs the virtual-thread mount/unmount hooks ({@link VirtualThreadMountInstrumentation}) with
 * the agent's {@link Instrumentation}, in an order that makes them live at once:
 *
 * <ol>
 *   <li>checks that this JDK has {@code VirtualThread.mount()/unmount()} (JDK 21 to 25); on JDK 17
 *       it stops here, before any ByteBuddy class is touched;
 *   <li>appends {@link VirtualThreadMounts} to the bootstrap class path (a one-class jar in a
 *       fresh private directory), the only place advice inside {@code java.base} can call into;
 *   <li>hands that bootstrap copy the two callbacks;
 *   <li>retransforms {@code VirtualThread}.
 * </ol>
 *
 * <p>Why not the agent's {@code InstrumentationModule} SPI: it injects helper classes into the boot
 * loader lazily, when the hooked class is transformed, so the extension could not wire the
 * callbacks at startup without racing that injection; and its extension API (2.31.1-alpha) lags
 * the agent (2.33.1). Here the order is ours and the outcome is known before startup continues.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class VirtualThreadHooks {
  /** By name: a class literal would load a second, useless copy into the extension's loader. */
  static final String HOLDER = "io.spanflight.internal.instrumentation.bootstrap.VirtualThreadMounts";

  private VirtualThreadHooks() {}

  /**
   * Hooks mount/unmount so that each mount calls {@code mounted} and each unmount {@code
   * unmounting} (on the carrier, with the virtual thread current).
   *
   * @param jarDirectory the root of the private directory the one-class bootstrap jar is written
   *     to (see {@code PrivateDirectory}); null for java.io.tmpdir
   * @return null when the hooks are live, else why they are not (nothing was changed then, or
   *     only the idle holder was added to the bootstrap class path)
   */
  public static String install(Path jarDirectory, Runnable mounted, Runnable unmounting) {
    if (Runtime.version().feature() < 21) {
      return "no virtual threads before JDK 21";
    }
    try {
      Class<?> virtualThread = Class.forName(VirtualThreadMountInstrumentation.TYPE, false, null);
      for (String name : new String[] {"mount", "unmount"}) {
        if (!Modifier.isPrivate(virtualThread.getDeclaredMethod(name).getModifiers())) {
          return "this JDK's VirtualThread." + name + "() is not private, as the hook expects";
        }
      }
      Instrumentation instrumentation = AgentInstrumentation.get();
      if (instrumentation == null) {
        return "the javaagent's Instrumentation is not available";
      }
      if (!instrumentation.isRetransformClassesSupported()
          || !instrumentation.isModifiableClass(virtualThread)) {
        return "this JVM cannot retransform " + virtualThread.getName();
      }
      holder(instrumentation, jarDirectory)
          .getMethod("set", Runnable.class, Runnable.class)
          .invoke(null, mounted, unmounting);
      return VirtualThreadMountInstrumentation.install(instrumentation);
    } catch (NoSuchMethodException e) {
      return "this JDK's VirtualThread has no " + e.getMessage() + "()";
    } catch (IOException e) {
      return e.getMessage();
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return e.toString();
    }
  }

  /** The hooks stay in place but call nothing any more (at shutdown). */
  public static void disconnect() {
    try {
      Class.forName(HOLDER, true, null).getMethod("clear").invoke(null);
    } catch (ReflectiveOperationException | LinkageError e) {
      // never installed: nothing to disconnect
    }
  }

  /** The boot loader's VirtualThreadMounts, added to the boot class path unless it is there. */
  private static Class<?> holder(Instrumentation instrumentation, Path jarDirectory)
      throws IOException, ClassNotFoundException {
    return BootClasses.load(instrumentation, jarDirectory, "spanflight-boot.jar", HOLDER);
  }

  /** Writes the one-class jar into a new private directory under {@code jarDirectory}. */
  static Path holderJar(Path jarDirectory) throws IOException {
    return BootClasses.jar(jarDirectory, "spanflight-boot.jar", HOLDER);
  }
}
