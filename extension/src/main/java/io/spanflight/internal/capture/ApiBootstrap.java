package io.spanflight.internal.capture;

import io.spanflight.internal.bridge.PrivateDirectory;
import io.spanflight.internal.instrumentation.AgentInstrumentation;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Connects the public API ({@code io.spanflight.SpanflightContext}, in the application's class
 * loader) to this extension (in the agent's): the API jar shipped inside spanflight.jar is put on
 * the bootstrap class path, so the application resolves the API classes from there (class loaders
 * ask their parents first) and both sides see the same class, whose two hooks this class sets.
 * Done at agent start, before the application's main class loads; if it fails, the API keeps
 * working on its per-thread fallback and nothing is recorded for it.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class ApiBootstrap {
  private static final Logger logger = Logger.getLogger("io.spanflight");
  static final String API_JAR = "/META-INF/spanflight/spanflight-api.jar";
  static final String API_CLASS = "io.spanflight.SpanflightContext";

  private ApiBootstrap() {}

  /**
   * Installs the API on the bootstrap class path and connects it; returns a description of the
   * problem, or null on success.
   *
   * @param directory the root of the private directory the API jar is written to (see {@link
   *     PrivateDirectory}; null: {@code java.io.tmpdir})
   */
  public static String install(Path directory) {
    try {
      if (ApiBootstrap.class.getResource(API_JAR) == null) {
        return API_JAR + " is missing from spanflight.jar";
      }
      Instrumentation instrumentation = AgentInstrumentation.get();
      if (instrumentation == null) {
        return "the OpenTelemetry agent's Instrumentation is not reachable";
      }
      instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(extract(directory).toFile()));
      Class<?> api = Class.forName(API_CLASS, true, null);
      set(api, "currentEntries", UserContext.CURRENT);
      set(api, "attachEntries", UserContext.ATTACH);
      return null;
    } catch (IOException e) {
      logger.log(Level.FINE, "Spanflight API bootstrap failed", e);
      return e.getMessage();
    } catch (Exception | LinkageError e) {
      logger.log(Level.FINE, "Spanflight API bootstrap failed", e);
      return e.toString();
    }
  }

  /** Writes the API jar into a new private directory under {@code directory}; returns the jar. */
  static Path extract(Path directory) throws IOException {
    try (InputStream in = ApiBootstrap.class.getResourceAsStream(API_JAR)) {
      if (in == null) {
        throw new IOException(API_JAR + " is missing from spanflight.jar");
      }
      return PrivateDirectory.create(directory).write("spanflight-api.jar", in.readAllBytes());
    }
  }

  private static void set(Class<?> api, String field, Object value) throws ReflectiveOperationException {
    Field f = api.getDeclaredField(field);
    f.setAccessible(true);
    f.set(null, value);
  }
}
