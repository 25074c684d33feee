package io.spanflight.smoke.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the files an app JVM needs are: the OpenTelemetry javaagent, the built {@code
 * spanflight.jar}, the app's classes, and the build directory for logs and output.
 *
 * <p>The Maven build passes them as system properties ({@code spanflight.agent.jar}, {@code
 * spanflight.extension.jar}, {@code spanflight.app.classpath}, {@code
 * spanflight.build.directory}); without them the defaults are the module's usual locations.
 */
public record SmokePaths(Path agentJar, Path extensionJar, Path appClasspath, Path buildDir) {

  /** Reads the system properties set by the build, with the module's layout as fallback. */
  public static SmokePaths fromSystemProperties() {
    Path cwd = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
    Path module = cwd.getFileName() != null && cwd.getFileName().toString().equals("smoke-tests")
        ? cwd : cwd.resolve("smoke-tests");
    Path target = path("spanflight.build.directory", module.resolve("target"));
    return new SmokePaths(
        path("spanflight.agent.jar", target.resolve("agent/opentelemetry-javaagent.jar")),
        path("spanflight.extension.jar", module.resolve("../extension/target/spanflight.jar")),
        path("spanflight.app.classpath", target.resolve("classes")),
        target);
  }

  /**
   * The jars the app classes need besides themselves (Netty, the {@code @WithSpan} annotation),
   * as listed by the build in {@code app-dependencies.classpath} of the build directory.
   */
  public List<Path> appDependencies() {
    Path list = buildDir.resolve("app-dependencies.classpath");
    try {
      String text = Files.readString(list).trim();
      List<Path> jars = new ArrayList<>();
      for (String entry : text.isEmpty() ? new String[0] : text.split(File.pathSeparator)) {
        jars.add(Paths.get(entry));
      }
      return jars;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + list
          + "; the smoke-tests build writes it (mvn -B -pl smoke-tests generate-resources)", e);
    }
  }

  /** Throws with a message saying how to get the javaagent if it is missing. */
  public SmokePaths requireAgentJar() {
    if (!Files.isRegularFile(agentJar)) {
      throw new IllegalStateException("OpenTelemetry javaagent not found at " + agentJar
          + "; the smoke-tests build copies it there (mvn -B -pl smoke-tests generate-resources)");
    }
    return this;
  }

  /** Throws with a message saying how to build spanflight.jar if it is missing. */
  public SmokePaths requireExtensionJar() {
    if (!Files.isRegularFile(extensionJar)) {
      throw new IllegalStateException("spanflight.jar not found at " + extensionJar
          + "; build it first: ./mvnw -B package -DskipTests");
    }
    return this;
  }

  /** Both {@link #requireAgentJar()} and {@link #requireExtensionJar()}. */
  public SmokePaths requireJars() {
    return requireAgentJar().requireExtensionJar();
  }

  private static Path path(String property, Path fallback) {
    String value = System.getProperty(property);
    Path path = value == null || value.isBlank() ? fallback : Paths.get(value);
    return path.toAbsolutePath().normalize();
  }
}
