package io.spanflight.internal.jfr.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spanflight.internal.LogLines;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reader switch: which reader reads, when it falls back, what it says and counts. */
class JfrReadersTest {
  private LogLines lines;

  @BeforeEach
  void listen() {
    lines = LogLines.listen(JfrReaders.class);
  }

  @AfterEach
  void stopListening() {
    lines.close();
  }

  @Test
  void autoReadsWithOursThenFallsBackOnceForGoodWithOneLineAndACount() {
    JfrReaders readers = new JfrReaders(JfrReaders.Choice.AUTO);
    assertThat(readers.jdk()).isFalse();
    assertThat(readers.inUse()).isEqualTo("spanflight");
    assertThat(readers.fallbacks()).isZero();

    assertThat(readers.fallBack(new IOException("JFR chunk format 3.0 at 0 is not 2.x (JDK 14 and later)"))).isTrue();

    assertThat(readers.jdk()).isTrue();
    assertThat(readers.inUse()).isEqualTo("jdk");
    assertThat(readers.fallbacks()).isEqualTo(1);
    assertThat(readers.describe()).isEqualTo("reader=jdk (auto, fallbacks 1)");
    assertThat(lines.records()).hasSize(1);
    LogRecord line = lines.records().get(0);
    assertThat(line.getLevel()).isEqualTo(Level.WARNING);
    assertThat(line.getMessage())
        .doesNotContain("\n")
        .contains(System.getProperty("java.runtime.version"), "JFR chunk format 3.0 at 0 is not 2.x",
            "the JDK's event stream", "allocates more and costs more CPU", "for the life of this JVM");

    assertThat(readers.fallBack(new IOException("again"))).as("already on the JDK's stream").isFalse();
    assertThat(readers.fallbacks()).isEqualTo(1);
    assertThat(lines.records()).hasSize(1);
  }

  @Test
  void spanflightNeverFallsBack() {
    JfrReaders readers = new JfrReaders(JfrReaders.Choice.SPANFLIGHT);
    assertThat(readers.fallBack(new IOException("metadata"))).isFalse();
    assertThat(readers.jdk()).isFalse();
    assertThat(readers.fallbacks()).isZero();
    assertThat(lines.records()).isEmpty();
  }

  @Test
  void jdkReadsWithTheJdksStreamFromTheStartWithoutCountingAFallback() {
    JfrReaders readers = new JfrReaders(JfrReaders.Choice.JDK);
    assertThat(readers.jdk()).isTrue();
    assertThat(readers.fallBack(new IOException("truncated"))).isFalse();
    assertThat(readers.fallbacks()).isZero();
    assertThat(readers.describe()).isEqualTo("reader=jdk (jdk, fallbacks 0)");
    assertThat(lines.records()).isEmpty();
  }

  @Test
  void aMessageOnSeveralLinesIsLoggedOnOne() {
    assertThat(JfrReaders.fallbackLine(new IOException("first\r\nsecond"))).doesNotContain("\n", "\r")
        .contains("first second");
    assertThat(JfrReaders.fallbackLine(new IOException((String) null))).contains("(no message)");
  }

  @Test
  void theSettingsValuesNameTheChoices() {
    assertThat(JfrReaders.Choice.of("auto")).isEqualTo(JfrReaders.Choice.AUTO);
    assertThat(JfrReaders.Choice.of("spanflight")).isEqualTo(JfrReaders.Choice.SPANFLIGHT);
    assertThat(JfrReaders.Choice.of("JDK")).isEqualTo(JfrReaders.Choice.JDK);
    assertThatThrownBy(() -> JfrReaders.Choice.of("both")).isInstanceOf(IllegalArgumentException.class);
  }
}
