package io.spanflight.internal.bridge;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Loads libspanflight.so once per class loader: copies it from the class path (the JVM can only
 * load a file) into a fresh {@link PrivateDirectory} of this process and loads that copy; a file
 * found on disk is never loaded.
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
   * @param directory the root of the private directory the library is written to; null for
   *     {@code java.io.tmpdir}
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
    try {
      Path file = extract(directory);
      if (file == null) {
        return RESOURCE + " is not on the class path (built without a C compiler?)";
      }
      System.load(file.toString());
      loaded = file;
      return null;
    } catch (IOException e) {
      return e.getMessage();
    } catch (RuntimeException | LinkageError e) {
      return e.toString();
    }
  }

  /** Writes the library into a new private directory; returns the file, or null if not packaged. */
  static Path extract(Path directory) throws IOException {
    try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return null;
      }
      return PrivateDirectory.create(directory).write("libspanflight.so", in.readAllBytes());
    }
  }

}
