package io.spanflight.testsupport;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Points {@code java.io.tmpdir} at a test's own directory before each test and back after it, for
 * tests of code that creates its private directories under the temporary directory:
 *
 * <pre>
 * &#64;TempDir Path tmp;
 * &#64;RegisterExtension final OwnTmpdir ownTmpdir = new OwnTmpdir(() -&gt; tmp);
 * </pre>
 *
 * <p>The supplier is read before each test, after JUnit has filled the {@code @TempDir} field
 * (JUnit's own temporary-directory extension runs first). A test may set the property again; it
 * is restored all the same.
 *
 * <p>Test support (module {@code test-support}), shared by the tests of {@code bridge-native} and
 * {@code instrumentation}. Never in spanflight.jar.
 */
public final class OwnTmpdir implements BeforeEachCallback, AfterEachCallback {
  private static final String KEY = "java.io.tmpdir";
  private final Supplier<Path> directory;
  private String saved;

  public OwnTmpdir(Supplier<Path> directory) {
    this.directory = directory;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    saved = System.getProperty(KEY);
    System.setProperty(KEY, directory.get().toString());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setProperty(KEY, saved);
  }
}
