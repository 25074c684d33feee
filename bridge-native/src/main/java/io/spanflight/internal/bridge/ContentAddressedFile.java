package io.spanflight.internal.bridge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Writes bytes shipped inside the jar (the native library, the API jar for the bootstrap class
 * path) to a file named after their content hash, so JVMs of one version share one file and
 * different versions never overwrite each other's.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ContentAddressedFile {
  private ContentAddressedFile() {}

  /**
   * Writes {@code content} to {@code dir/<prefix><hash><suffix>} unless an identical file is there
   * already; returns its path.
   */
  public static Path write(byte[] content, Path dir, String prefix, String suffix) throws IOException {
    Path file = dir.resolve(prefix + contentHash(content) + suffix);
    if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), content)) {
      return file;
    }
    // Write aside, then rename: a concurrent JVM sees the old file or the complete new one.
    Path partial = Files.createTempFile(dir, prefix, ".part");
    try {
      Files.write(partial, content);
      return Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  private static String contentHash(byte[] bytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      StringBuilder hex = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        hex.append(String.format("%02x", digest[i]));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
