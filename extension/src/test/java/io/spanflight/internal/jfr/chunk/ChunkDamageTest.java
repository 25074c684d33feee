package io.spanflight.internal.jfr.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test seam's damage, applied to the committed recordings: each kind makes Spanflight's reader
 * fail with a {@link ChunkFormatException} saying what it met (the failure that makes {@code
 * JfrReaders} switch to the JDK's stream), where the bytes as JFR wrote them read cleanly.
 */
class ChunkDamageTest {
  private static final String[] EVENTS = {"jdk.ExecutionSample"};
  private static final String[][] FIELDS = {{"startTime", "sampledThread", "stackTrace"}};
  private static final Expected[][] EXPECTED = {{Expected.NUMBER, Expected.THREAD, Expected.STACK_TRACE}};

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void undamagedTheRecordingReadsWithEveryThreadKnown(String fixture) throws Exception {
    byte[] bytes = ChunkFiles.bytes(fixture);
    List<Long> threads = read(bytes, EXPECTED);

    assertThat(threads).hasSizeGreaterThan(10).allMatch(thread -> thread > 0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void aMetadataStringInAnEncodingNoJdkWritesCannotBeParsed(String fixture) throws Exception {
    byte[] bytes = damageFirstMetadata(fixture, ChunkDamage.Kind.METADATA);

    assertThatThrownBy(() -> read(bytes, EXPECTED)).isInstanceOf(ChunkFormatException.class)
        .hasMessageContaining("string encoding " + ChunkDamage.UNKNOWN_ENCODING);
  }

  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void aRenamedThreadFieldFailsThePlanCheck(String fixture) throws Exception {
    byte[] bytes = damageFirstMetadata(fixture, ChunkDamage.Kind.LAYOUT);

    assertThatThrownBy(() -> read(bytes, EXPECTED)).isInstanceOf(ChunkFormatException.class)
        .hasMessage("event jdk.ExecutionSample has no field sampledThread, which the reader's plan reads");
  }

  /**
   * What the plan check prevents: a reader that does not require the field reads every sample of
   * the damaged chunk without a thread, and no error says so.
   */
  @ParameterizedTest
  @ValueSource(strings = {"jdk17.jfr", "jdk25.jfr"})
  void withoutThePlanCheckARenamedThreadFieldLosesEveryThreadSilently(String fixture) throws Exception {
    byte[] bytes = damageFirstMetadata(fixture, ChunkDamage.Kind.LAYOUT);
    Expected[][] anything = {{Expected.ANY, Expected.ANY, Expected.ANY}};
    int firstChunk = (int) header(bytes).size();

    List<Long> threads = read(Arrays.copyOf(bytes, firstChunk), anything);

    assertThat(threads).isNotEmpty().allMatch(thread -> thread == -1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"version", "truncated"})
  void aDamagedHeaderIsRejected(String kind) throws Exception {
    byte[] bytes = ChunkFiles.bytes("jdk25.jfr");
    ByteBuffer header = ByteBuffer.wrap(bytes, 0, ChunkHeader.SIZE);
    seam(kind).header(header);

    assertThatThrownBy(() -> read(bytes, EXPECTED)).isInstanceOf(ChunkFormatException.class)
        .hasMessageContaining(kind.equals("version") ? "JFR chunk format 3.0 at 0 is not 2.x" : "chunk size");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "version:later", "fast:0", "metadata:99999"})
  void noDamageOrNotYetLeavesTheBytesAsJfrWroteThem(String value) throws Exception {
    byte[] original = ChunkFiles.bytes("jdk25.jfr");
    byte[] bytes = original.clone();
    ChunkDamage damage = seam(value);
    damage.header(ByteBuffer.wrap(bytes, 0, ChunkHeader.SIZE));
    damage.metadata(bytes, 0, (int) header(bytes).size(), header(bytes));

    assertThat(bytes).isEqualTo(original);
  }

  private static ChunkDamage seam(String value) {
    String before = System.getProperty(ChunkDamage.PROPERTY);
    System.setProperty(ChunkDamage.PROPERTY, value);
    try {
      return ChunkDamage.fromSystemProperty();
    } finally {
      if (before == null) {
        System.clearProperty(ChunkDamage.PROPERTY);
      } else {
        System.setProperty(ChunkDamage.PROPERTY, before);
      }
    }
  }

  /** The fixture with the metadata of its first chunk damaged as the follower would damage it. */
  private static byte[] damageFirstMetadata(String fixture, ChunkDamage.Kind kind) throws Exception {
    byte[] original = ChunkFiles.bytes(fixture);
    byte[] bytes = original.clone();
    ChunkHeader header = header(bytes);
    new ChunkDamage(kind, 0).metadata(bytes, 0, (int) header.size(), header);
    assertThat(bytes).as("damaged").isNotEqualTo(original);
    return bytes;
  }

  private static ChunkHeader header(byte[] bytes) throws ChunkFormatException {
    return ChunkHeader.read(new ChunkInput(bytes, 0, bytes.length), bytes.length);
  }

  /** The Java thread id of every execution sample read. */
  private static List<Long> read(byte[] bytes, Expected[][] expected) throws ChunkFormatException {
    List<Long> threads = new ArrayList<>();
    ChunkReader[] reader = new ChunkReader[1];
    reader[0] = new ChunkReader(new ConstantStore(), EVENTS, FIELDS, expected,
        (subscription, values) -> threads.add(reader[0].javaThreadId(values[1])));
    reader[0].read(bytes, bytes.length);
    return threads;
  }
}
