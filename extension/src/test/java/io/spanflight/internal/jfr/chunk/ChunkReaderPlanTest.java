package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plan check: a field whose type in the chunk's metadata is not what the reader's plan reads
 * it as (as after a JDK changed the event) is a {@link ChunkFormatException} before any event is
 * read, never a value read as something else. Each case asks a real field of the committed
 * recordings for what it is not, which is what a JDK changing the field's type would look like to
 * the plan.
 */
class ChunkReaderPlanTest {
  @ParameterizedTest
  @CsvSource({
      "jdk.ExecutionSample, sampledThread, NUMBER, 'field sampledThread of type java.lang.Thread (a constant reference), not the number'",
      "jdk.ExecutionSample, sampledThread, STACK_TRACE, 'not the reference to jdk.types.StackTrace'",
      "jdk.ExecutionSample, stackTrace, THREAD, 'of type jdk.types.StackTrace (a constant reference), not the reference to java.lang.Thread'",
      "jdk.ExecutionSample, startTime, THREAD, 'field startTime of type long, not the reference to java.lang.Thread'",
      "jdk.ExecutionSample, startTime, STRING, 'field startTime of type long, not the string'",
      "jdk.ExecutionSample, startTime, METHOD, 'not the reference to jdk.types.Method'",
      "jdk.ActiveSetting, name, NUMBER, 'field name of type java.lang.String, not the number'",
      "jdk.ActiveSetting, id, STRING, 'field id of type long, not the string'",
      "jdk.ObjectAllocationSample, weight, THREAD, 'field weight of type long, not the reference to java.lang.Thread'",
      "jdk.ObjectAllocationSample, nothere, NUMBER, 'event jdk.ObjectAllocationSample has no field nothere'",
  })
  void aFieldThatIsNotWhatThePlanReadsFailsTheChunk(String event, String field, Expected expected, String message)
      throws Exception {
    for (String fixture : new String[] {"jdk17.jfr", "jdk25.jfr"}) {
      byte[] bytes = ChunkFiles.bytes(fixture);
      ChunkReader reader = new ChunkReader(new ConstantStore(), new String[] {event}, new String[][] {{field}},
          new Expected[][] {{expected}}, (subscription, values) -> {});

      assertThatThrownBy(() -> reader.read(bytes, bytes.length)).as(fixture)
          .isInstanceOf(ChunkFormatException.class).hasMessageContaining(message);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void fieldsThatAreWhatThePlanReadsAreRead(String fixture) throws Exception {
    byte[] bytes = ChunkFiles.bytes(fixture);
    long[] read = new long[3];
    ChunkReader reader = new ChunkReader(new ConstantStore(),
        new String[] {"jdk.ExecutionSample", "jdk.ObjectAllocationSample"},
        new String[][] {{"startTime", "sampledThread", "stackTrace", "duration", "weight"},
            {"startTime", "eventThread", "stackTrace", "weight", "nothere"}},
        new Expected[][] {
            {Expected.NUMBER, Expected.THREAD, Expected.STACK_TRACE, Expected.NUMBER_IF_PRESENT, Expected.NUMBER_IF_PRESENT},
            {Expected.NUMBER, Expected.THREAD, Expected.STACK_TRACE, Expected.NUMBER, Expected.ANY}},
        (subscription, values) -> {
          read[subscription]++;
          if (subscription == 1 && values[3] > 0) {
            read[2]++;
          }
        });

    reader.read(bytes, bytes.length);

    assertThat(read[0]).as("execution samples").isGreaterThan(10);
    assertThat(read[1]).as("allocation samples").isGreaterThan(10);
    assertThat(read[2]).as("allocation samples with a weight").isEqualTo(read[1]);
  }
}
