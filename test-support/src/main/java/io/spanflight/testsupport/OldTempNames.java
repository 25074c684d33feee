package io.spanflight.testsupport;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The file names earlier versions extracted a resource to in the shared temporary directory and
 * reused when the content matched: {@code <prefix><first 8 bytes of the content's SHA-256, as
 * lower-case hex><suffix>}, e.g. {@code libspanflight-0123456789abcdef.so}. The tests that plant a
 * file of another user at such a name build it here.
 *
 * <p>Test support (module {@code test-support}), shared by the tests of {@code bridge-native} and
 * {@code extension}. Never in spanflight.jar.
 */
public final class OldTempNames {
  private static final int HASH_BYTES = 8;

  private OldTempNames() {}

  /** The old name of {@code content}: {@code prefix}, then the hash, then {@code suffix}. */
  public static String of(String prefix, byte[] content, String suffix) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    return prefix + HexFormat.of().formatHex(digest, 0, HASH_BYTES) + suffix;
  }
}
