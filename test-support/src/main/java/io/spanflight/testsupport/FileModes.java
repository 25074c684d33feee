package io.spanflight.testsupport;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A file's POSIX permissions as {@code ls} shows them ({@code rwx------}), read without following
 * a symbolic link: what the tests of owner-only directories and files assert on.
 *
 * <p>Test support (module {@code test-support}), shared by the tests of {@code bridge-native},
 * {@code instrumentation} and {@code extension}. Never in spanflight.jar.
 */
public final class FileModes {
  private FileModes() {}

  /** The permissions of {@code path} itself, e.g. {@code rw-------}. */
  public static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, NOFOLLOW_LINKS));
  }
}
