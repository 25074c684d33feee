package io.spanflight.internal.report;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing of the report's reader with Jazzer. The property: for any bytes, the
 * reader returns a request that the model, the JSON of the page and the terminal summary take
 * without failing, or it throws {@link MalformedProfileException}. Anything else escaping (an
 * {@code ArrayIndexOutOfBoundsException}, {@code NullPointerException}, {@code StackOverflowError},
 * {@code OutOfMemoryError} under the fuzz execution's small heap) is a finding, and so is an input
 * that takes longer than the {@link Timeout} below.
 *
 * <p>In a normal build this runs once per file under {@code
 * src/test/resources/io/spanflight/internal/report/ReportReaderFuzzTestInputs/anyBytesGiveAReportOrOurException/}:
 * the seeds (a request made by the generated classes, one made by Spanflight's own encoder from
 * real JFR samples, some of {@link HostileFiles}) and every crash the fuzzer found, kept as a
 * regression case once fixed. The extension's pom runs it a second time in fuzzing mode
 * ({@code JAZZER_FUZZ=1}) for 30 seconds; {@code -Dspanflight.fuzz.skip} skips that. A finding is
 * written to {@code extension/target/fuzz/crash-<sha1>}: fix the reader, then copy the file into
 * that directory under a name that says what it holds. ({@code attribute-key-out-of-range} there
 * was found in 16 s with the key check of {@link DictionaryDecoder} removed on purpose.)
 *
 * <p>Run only this, in fuzzing mode: {@code ./mvnw -B verify -pl extension -am -Pfuzz
 * -Dtest=ReportReaderFuzzTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ReportReaderFuzzTest {
  private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

  @FuzzTest(maxDuration = "30s")
  @Timeout(value = 10, unit = TimeUnit.SECONDS) // per input, in fuzzing mode
  void anyBytesGiveAReportOrOurException(byte[] bytes) throws IOException {
    ProfilesRequest request;
    try {
      request = RequestDecoder.decode(bytes);
    } catch (MalformedProfileException e) {
      return;
    }
    ReportModel model = new ReportModel();
    model.add(request);
    ReportJson.write(model, Writer.nullWriter());
    TerminalSummary.print(model, NOWHERE);
  }
}
