package io.spanflight.testsupport;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Gives a file to another user (uid {@value #UID}), which takes root. Off root the calling test is
 * skipped, except under {@code CI=true}, where CI runs as root and a skip would hide a gap: there
 * it fails.
 *
 * <p>Test support (module {@code test-support}), shared by the tests of {@code bridge-native} and
 * {@code extension} that plant files of another user. Never in spanflight.jar.
 */
public final class ForeignOwner {
  public static final int UID = 12345;

  private ForeignOwner() {}

  public static void give(Path path) throws IOException {
    Path probe = Files.createTempFile("spanflight-uid-", ".probe");
    int self;
    try {
      self = (Integer) Files.getAttribute(probe, "unix:uid");
    } finally {
      Files.delete(probe);
    }
    if (self != 0) {
      if ("true".equals(System.getenv("CI"))) {
        fail("this test chowns a file to another user and needs root, as CI runs it (uid is " + self + ")");
      }
      assumeTrue(false, "needs root to chown a file to another user");
    }
    Files.setAttribute(path, "unix:uid", UID, LinkOption.NOFOLLOW_LINKS);
  }
}
