package io.spanflight.internal.instrumentation;

import io.spanflight.internal.bridge.PrivateDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

/**
 * Puts classes of this module on the bootstrap class path, the only place that advice inlined
 * into any class (of the JDK or of any application class loader) can call into: they are written
 * into a small jar in a fresh private directory and appended with the agent's {@link
 * Instrumentation}, unless the boot loader has them already.
 *
 * <p>Not API: internal to Spanflight.
 */
final class BootClasses {
  private BootClasses() {}

  /**
   * The boot loader's copy of {@code classNames[0]}, after appending all of {@code classNames}
   * (when the boot loader does not know the first yet).
   *
   * @param jarDirectory the root of the private directory (see {@link PrivateDirectory}); null for
   *     java.io.tmpdir
   */
  static Class<?> load(Instrumentation instrumentation, Path jarDirectory, String jarName, String... classNames)
      throws IOException, ClassNotFoundException {
    try {
      return Class.forName(classNames[0], true, null);
    } catch (ClassNotFoundException notYet) {
      Path jar = jar(jarDirectory, jarName, classNames);
      instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
      return Class.forName(classNames[0], true, null);
    }
  }

  /** Writes the jar of {@code classNames} into a new private directory under {@code jarDirectory}. */
  static Path jar(Path jarDirectory, String jarName, String... classNames) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream out = new JarOutputStream(bytes)) {
      for (String className : classNames) {
        String entry = className.replace('.', '/') + ".class";
        try (InputStream in = BootClasses.class.getClassLoader().getResourceAsStream(entry)) {
          if (in == null) {
            throw new IOException("class file " + entry + " not found");
          }
          out.putNextEntry(new ZipEntry(entry));
          in.transferTo(out);
          out.closeEntry();
        }
      }
    }
    // the boot loader keeps the jar open; it is deleted at exit (on Linux unlinking is fine)
    return PrivateDirectory.create(jarDirectory).write(jarName, bytes.toByteArray());
  }
}
