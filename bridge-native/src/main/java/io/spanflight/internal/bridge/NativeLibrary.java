package io.spanflight.internal.bridge;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads libspanflight.so once per class loader: copies it from the class path into a directory
 * (the JVM can only load a file) under a name that contains a hash of its content, so JVMs of
 * different Spanflight versions sharing the directory never overwrite each other's library, and
 * JVMs of the same version share one file.
 *
 * <p>Not API: internal to Spanflight.
 */
final class NativeLibrary {
  static final String RESOURCE = "/native/linux-x86_64/libspanflight.so";

  private static boolean attempted;
  private static String failure;
  private static Path loaded;

  private NativeLibrary() {}

  /**
   * Loads the library on the first call; later calls return the first call's outcome.
   *
   * @param directory where to put the library file; null for {@code java.io.tmpdir}
   * @return null once loaded, else why it could not be loaded (never throws)
   */
  static synchronized String load(Path directory) {
    if (!attempted) {
      attempted = true;
      failure = tryLoad(directory);
    }
    return failure;
  }

  /** The file that was loaded, or null. */
  static synchronized Path loadedFile() {
    return loaded;
  }

  /** Whether this build ships a library for this platform at all. */
  static boolean isPackaged() {
    return NativeLibrary.class.getResource(RESOURCE) != null;
  }

  private static String tryLoad(Path directory) {
    try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return RESOURCE + " is not on the class path (built without a C compiler?)";
      }
      byte[] library = in.readAllBytes();
      Path dir = directory != null ? directory : Path.of(System.getProperty("java.io.tmpdir"));
      Path file =
          ContentAddressedFile.write(library, Files.createDirectories(dir), "libspanflight-", ".so").toRealPath();
      System.load(file.toString());
      loaded = file;
      return null;
    } catch (IOException | RuntimeException | LinkageError e) {
      return e.toString();
    }
  }

}
