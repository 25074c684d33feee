package io.spanflight.smoke.harness;

import java.nio.file.Path;

/**
 * An installed JDK or Java runtime (no {@code javac} needed: the tests only start its {@code java}
 * and {@code jcmd}).
 *
 * @param home the JDK directory (real path, symbolic links resolved)
 * @param feature the feature release, for example 17 or 25
 * @param version the full {@code JAVA_VERSION} from the {@code release} file
 */
public record Jdk(Path home, int feature, String version) {

  /** The {@code java} launcher of this JDK. */
  public Path java() {
    return home.resolve("bin").resolve("java");
  }

  /** A short name such as {@code jdk25}, for test names and log files. */
  public String label() {
    return "jdk" + feature;
  }

  @Override
  public String toString() {
    return label() + " (" + version + ", " + home + ")";
  }
}
