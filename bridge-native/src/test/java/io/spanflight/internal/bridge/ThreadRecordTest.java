package io.spanflight.internal.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The OTEP-4947 record, read through the exported TLS symbol as an external reader would. */
class ThreadRecordTest {
  private final NativeContextBridge bridge = NativeTestSupport.bridge();

  @Test
  void switchPublishesTheRecordByteForByteAndDetachClearsValid() {
    byte[] attrs = concat(attr(0, "GET /users/{id}"), attr(3, "eu-west-1"));
    define(77, ids(16, 0x10), ids(8, 0x80), (byte) 1, attrs);

    bridge.switchTo(77);
    assertThat(ExternalRecordReader.readOwnThread())
        .isEqualTo(record(ids(16, 0x10), ids(8, 0x80), 1, 1, attrs));

    bridge.switchTo(0);
    byte[] cleared = ExternalRecordReader.readOwnThread();
    assertThat(cleared).isNotNull(); // the pointer stays; only the valid flag says "none"
    assertThat(cleared[24]).isZero();
  }

  @Test
  void eachThreadHasItsOwnRecord() throws Exception {
    define(81, ids(16, 0x21), ids(8, 0x31), (byte) 1, new byte[0]);
    define(82, ids(16, 0x22), ids(8, 0x32), (byte) 0, attr(1, "x"));
    bridge.switchTo(81);

    AtomicReference<byte[]> before = new AtomicReference<>();
    AtomicReference<byte[]> other = new AtomicReference<>();
    TestThreads.runToOsThreadExit(
        () -> {
          before.set(ExternalRecordReader.readOwnThread());
          bridge.switchTo(82);
          other.set(ExternalRecordReader.readOwnThread());
        });

    assertThat(before.get()).as("no record before the thread's first switch").isNull();
    assertThat(other.get()).isEqualTo(record(ids(16, 0x22), ids(8, 0x32), 1, 0, attr(1, "x")));
    assertThat(ExternalRecordReader.readOwnThread())
        .isEqualTo(record(ids(16, 0x21), ids(8, 0x31), 1, 1, new byte[0]));
    bridge.switchTo(0);
  }

  @Test
  void redefiningAnIdOverwritesItAndUndefinedIdsPublishNothing() {
    define(90, ids(16, 0x01), ids(8, 0x02), (byte) 1, attr(2, "old"));
    define(90, ids(16, 0x41), ids(8, 0x42), (byte) 1, attr(2, "new"));
    bridge.switchTo(90);
    assertThat(ExternalRecordReader.readOwnThread())
        .isEqualTo(record(ids(16, 0x41), ids(8, 0x42), 1, 1, attr(2, "new")));

    bridge.switchTo(NativeContextBridge.MAX_CONTEXTS - 1); // never defined
    assertThat(ExternalRecordReader.readOwnThread()[24]).isZero();
    bridge.switchTo(0);
  }

  @Test
  void anIdOfAnEarlierGenerationOfItsSlotPublishesNothing() {
    int old = ContextIds.first(93);
    int reused = ContextIds.next(old); // slot 93 handed to another context
    assertThat(ContextIds.index(reused)).isEqualTo(93);
    assertThat(reused).isNotEqualTo(old).isPositive();
    define(old, ids(16, 0x61), ids(8, 0x62), (byte) 1, attr(2, "old"));
    define(reused, ids(16, 0x63), ids(8, 0x64), (byte) 1, attr(2, "new"));

    bridge.switchTo(old); // a thread that got the old id before the slot was reused
    assertThat(ExternalRecordReader.readOwnThread()[24]).as("valid").isZero();

    bridge.switchTo(reused);
    assertThat(ExternalRecordReader.readOwnThread())
        .isEqualTo(record(ids(16, 0x63), ids(8, 0x64), 1, 1, attr(2, "new")));

    int wrapped = reused;
    for (int g = 1; g < ContextIds.GENERATIONS; g++) {
      wrapped = ContextIds.next(wrapped);
    }
    assertThat(wrapped).as("generations wrap").isEqualTo(old);
    bridge.switchTo(ContextIds.next(reused)); // a generation not defined yet
    assertThat(ExternalRecordReader.readOwnThread()[24]).isZero();
    bridge.switchTo(0);
  }

  @Test
  void clearRecordsInvalidatesEveryThreadsRecordUntilItsNextSwitch() throws Exception {
    define(98, ids(16, 0x71), ids(8, 0x72), (byte) 1, attr(1, "on"));
    for (int i = 0; i < 3; i++) { // threads with records that are gone by the time we clear
      TestThreads.runToOsThreadExit(() -> bridge.switchTo(98));
    }
    bridge.switchTo(98);
    CountDownLatch shown = new CountDownLatch(1);
    CountDownLatch cleared = new CountDownLatch(1);
    AtomicReference<byte[]> carrierBefore = new AtomicReference<>();
    AtomicReference<byte[]> carrierAfter = new AtomicReference<>();
    Thread carrier =
        new Thread(
            () -> {
              bridge.showOnRecord(98); // a record with no ring, as on a virtual-thread carrier
              carrierBefore.set(ExternalRecordReader.readOwnThread());
              shown.countDown();
              try {
                cleared.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              carrierAfter.set(ExternalRecordReader.readOwnThread());
            });
    carrier.start();
    shown.await();

    bridge.clearRecords();
    cleared.countDown();
    carrier.join();

    assertThat(carrierBefore.get()[24]).as("valid before").isEqualTo((byte) 1);
    assertThat(carrierAfter.get()[24]).as("another thread's record, cleared").isZero();
    assertThat(ExternalRecordReader.readOwnThread()[24]).as("own record, cleared").isZero();
    bridge.switchTo(98);
    assertThat(ExternalRecordReader.readOwnThread())
        .as("the next switch publishes again")
        .isEqualTo(record(ids(16, 0x71), ids(8, 0x72), 1, 1, attr(1, "on")));
    bridge.switchTo(0);
  }

  /** Two entries of 252 bytes that fit the record's 612, and a third that does not. */
  private static final String LONG_VALUE = "v".repeat(250);
  private static final byte[] KEPT = concat(attr(0, LONG_VALUE), attr(1, LONG_VALUE));
  private static final byte[] TOO_LONG = concat(KEPT, attr(2, LONG_VALUE));

  @Test
  void attributesThatDoNotFitAreDroppedWholeAndCounted() {
    long droppedBefore = bridge.droppedAttributeBytes();

    define(95, ids(16, 0x51), ids(8, 0x52), (byte) 1, TOO_LONG);
    bridge.switchTo(95);

    assertThat(ExternalRecordReader.readOwnThread())
        .isEqualTo(record(ids(16, 0x51), ids(8, 0x52), 1, 1, KEPT));
    assertThat(bridge.droppedAttributeBytes() - droppedBefore).isEqualTo(252);
    bridge.switchTo(0);
  }

  @Test
  void aSlotRedefinedBetweenLongAndShortAttributesPublishesEachExactly() {
    byte[] longAttrs = concat(attr(0, "r".repeat(200)), attr(1, "m".repeat(100))); // beyond the entry's own bytes
    byte[] shortAttrs = attr(0, "/owners/{id}");
    int id = ContextIds.first(2_000_001); // a slot of a chunk no other test uses

    for (byte[] attrs : new byte[][] {longAttrs, shortAttrs, longAttrs, new byte[0], shortAttrs}) {
      define(id, ids(16, attrs.length), ids(8, 0x90), (byte) 1, attrs);
      bridge.switchTo(id);
      assertThat(ExternalRecordReader.readOwnThread())
          .as("record after defining %d attribute bytes", attrs.length)
          .isEqualTo(record(ids(16, attrs.length), ids(8, 0x90), 1, 1, attrs));
    }
    bridge.switchTo(0);
  }

  /** Set numbers no other test of this JVM uses: the native table keeps sets for the process. */
  private static final int SET_FIRST = 60_001;
  private static final int SET_A = 60_002;
  private static final int SET_B = 60_003;
  private static final int SET_LONG = 60_004;

  @Test
  void aSetNumberStandsForTheBytesItWasFirstDefinedWith() {
    define(ContextIds.first(2_000_101), ids(16, 0x11), ids(8, 0x12), (byte) 1, attr(0, "/first"), SET_FIRST);
    int second = ContextIds.first(2_000_102);
    define(second, ids(16, 0x13), ids(8, 0x14), (byte) 1, attr(0, "/not-read"), SET_FIRST);

    bridge.switchTo(second);
    assertThat(ExternalRecordReader.readOwnThread())
        .as("the set's bytes are read on its first define only")
        .isEqualTo(record(ids(16, 0x13), ids(8, 0x14), 1, 1, attr(0, "/first")));
    bridge.switchTo(0);
  }

  @Test
  void aSlotRedefinedBetweenSetsAndItsOwnBytesPublishesEachExactly() {
    byte[] a = attr(0, "/owners/{id}");
    byte[] b = concat(attr(0, "/vets"), attr(1, "GET"));
    byte[] ownLong = concat(attr(0, "r".repeat(200)), attr(1, "m".repeat(100)));
    byte[] ownShort = attr(0, "/own");
    define(ContextIds.first(2_000_103), ids(16, 1), ids(8, 1), (byte) 1, a, SET_A); // the set, if not yet
    define(ContextIds.first(2_000_104), ids(16, 1), ids(8, 1), (byte) 1, b, SET_B);
    int id = ContextIds.first(2_000_105);

    // -7 and MAX_ATTRIBUTE_SETS are no set numbers: the bytes are the context's own
    byte[][] shown = {b, ownShort, a, ownLong, new byte[0], b, ownShort};
    int[] sets = {SET_B, ContextBridge.OWN_ATTRIBUTES, SET_A, -7, ContextBridge.OWN_ATTRIBUTES, SET_B,
        ContextBridge.MAX_ATTRIBUTE_SETS};
    for (int i = 0; i < shown.length; i++) {
      define(id, ids(16, i), ids(8, 0x90), (byte) 1, shown[i], sets[i]);
      bridge.switchTo(id);
      assertThat(ExternalRecordReader.readOwnThread())
          .as("record after define %d (set %d)", i, sets[i])
          .isEqualTo(record(ids(16, i), ids(8, 0x90), 1, 1, shown[i]));
    }
    bridge.switchTo(0);
  }

  @Test
  void aSetsDroppedBytesAreCountedAtEveryDefine() {
    long droppedBefore = bridge.droppedAttributeBytes();

    define(ContextIds.first(2_000_106), ids(16, 0x51), ids(8, 0x52), (byte) 1, TOO_LONG, SET_LONG);
    int second = ContextIds.first(2_000_107);
    define(second, ids(16, 0x53), ids(8, 0x54), (byte) 1, TOO_LONG, SET_LONG);
    bridge.switchTo(second);

    assertThat(ExternalRecordReader.readOwnThread()).isEqualTo(record(ids(16, 0x53), ids(8, 0x54), 1, 1, KEPT));
    assertThat(bridge.droppedAttributeBytes() - droppedBefore).isEqualTo(2 * 252);
    bridge.switchTo(0);
  }

  /** Set numbers below {@link TableChunks#SETS} that no other test of this JVM uses. */
  private static final int SET_JAVA = 4_001;
  private static final int SET_JAVA_LONG = 4_002;

  @Test
  void aContextOfAKnownSetIsDefinedFromJavaAndPublishedExactly() {
    TableChunks table = new TableChunks();
    int first = ContextIds.first(2_000_201);
    int second = ContextIds.first(2_000_202);
    byte[] route = attr(0, "/java/{id}");
    assertThat(defineFromJava(table, second, ids(16, 0x11), ids(8, 0x12), (byte) 1, route, SET_JAVA))
        .as("chunk and set not known yet").isFalse();
    defineThroughJni(table, first, ids(16, 0x21), ids(8, 0x22), (byte) 1, route, SET_JAVA);

    assertThat(defineFromJava(table, second, ids(16, 0x31), ids(8, 0x41), (byte) 0, route, SET_JAVA))
        .as("defined from Java").isTrue();
    bridge.switchTo(second);
    assertThat(ExternalRecordReader.readOwnThread()).isEqualTo(record(ids(16, 0x31), ids(8, 0x41), 1, 0, route));

    int reused = ContextIds.next(second); // the slot handed to another context, from Java again
    assertThat(defineFromJava(table, reused, new byte[16], new byte[8], (byte) 1, new byte[0],
        ContextBridge.OWN_ATTRIBUTES)).isTrue();
    bridge.switchTo(second);
    assertThat(ExternalRecordReader.readOwnThread()[24]).as("the old id shows nothing").isZero();
    bridge.switchTo(reused);
    assertThat(ExternalRecordReader.readOwnThread()).isEqualTo(record(new byte[16], new byte[8], 1, 1, new byte[0]));
    assertThat(defineFromJava(table, reused, new byte[16], new byte[8], (byte) 1, route, ContextBridge.OWN_ATTRIBUTES))
        .as("own bytes go through JNI").isFalse();
    bridge.switchTo(0);
  }

  @Test
  void aKnownSetsDroppedBytesAreCountedWhenDefinedFromJava() {
    TableChunks table = new TableChunks();
    defineThroughJni(table, ContextIds.first(2_000_203), ids(16, 0x51), ids(8, 0x52), (byte) 1, TOO_LONG,
        SET_JAVA_LONG);

    int second = ContextIds.first(2_000_204);
    assertThat(defineFromJava(table, second, ids(16, 0x53), ids(8, 0x54), (byte) 1, TOO_LONG, SET_JAVA_LONG)).isTrue();
    assertThat(table.droppedAttributeBytes()).isEqualTo(252);
    bridge.switchTo(second);
    assertThat(ExternalRecordReader.readOwnThread()).isEqualTo(record(ids(16, 0x53), ids(8, 0x54), 1, 1, KEPT));
    bridge.switchTo(0);
  }

  /** {@code table}'s own definition, as the bridge makes it once the chunk and the set are known. */
  private static boolean defineFromJava(TableChunks table, int contextId, byte[] traceId, byte[] spanId, byte flags,
      byte[] attributes, int set) {
    ByteBuffer trace = ByteBuffer.wrap(traceId); // big-endian, as W3C ids are
    return table.define(contextId, trace.getLong(0), trace.getLong(8), ByteBuffer.wrap(spanId).getLong(0), flags,
        attributes, set);
  }

  /** A definition through JNI (which makes the chunk and the set), then {@code table} learns them. */
  private static void defineThroughJni(TableChunks table, int contextId, byte[] traceId, byte[] spanId, byte flags,
      byte[] attributes, int set) {
    ByteBuffer trace = ByteBuffer.wrap(traceId);
    NativeContextBridge.define0(contextId, trace.getLong(0), trace.getLong(8), ByteBuffer.wrap(spanId).getLong(0),
        flags, set, attributes);
    table.learn(contextId, set);
  }

  @Test
  void showOnRecordWritesOnlyTheRecordAndCreatesNoRing() throws Exception {
    define(97, ids(16, 0x61), ids(8, 0x71), (byte) 1, attr(4, "vt"));
    bridge.drain(new RecordingSink()); // start from empty rings
    int ringsBefore = bridge.ringCount();

    AtomicReference<byte[]> shown = new AtomicReference<>();
    AtomicReference<byte[]> hidden = new AtomicReference<>();
    AtomicReference<Integer> ringsWhileShowing = new AtomicReference<>();
    TestThreads.runToOsThreadExit(
        () -> {
          bridge.showOnRecord(97); // what a carrier does right after a virtual thread mounts
          shown.set(ExternalRecordReader.readOwnThread());
          ringsWhileShowing.set(bridge.ringCount());
          bridge.showOnRecord(0); // and at the start of its unmount
          hidden.set(ExternalRecordReader.readOwnThread());
        });
    RecordingSink sink = new RecordingSink();
    bridge.drain(sink);

    assertThat(shown.get()).isEqualTo(record(ids(16, 0x61), ids(8, 0x71), 1, 1, attr(4, "vt")));
    assertThat(hidden.get()).isNotNull();
    assertThat(hidden.get()[24]).as("valid flag after showing no context").isZero();
    assertThat(ringsWhileShowing.get()).as("rings while only showing").isEqualTo(ringsBefore);
    assertThat(sink.events).as("timeline entries from showing").isEmpty();
  }

  /** The expected record: the OTEP-4947 layout in native byte order. */
  private static byte[] record(byte[] traceId, byte[] spanId, int valid, int flags, byte[] attrs) {
    ByteBuffer record = ByteBuffer.allocate(28 + attrs.length).order(ByteOrder.nativeOrder());
    record.put(traceId).put(spanId).put((byte) valid).put((byte) flags);
    return record.putShort((short) attrs.length).put(attrs).array();
  }

  /** One packed attribute entry: {key index, length, utf-8 value}. */
  static byte[] attr(int keyIndex, String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    byte[] entry = Arrays.copyOf(new byte[] {(byte) keyIndex, (byte) utf8.length}, 2 + utf8.length);
    System.arraycopy(utf8, 0, entry, 2, utf8.length);
    return entry;
  }

  /** Defines {@code contextId} with W3C id bytes (16 and 8), as the records must show them again. */
  private void define(int contextId, byte[] traceId, byte[] spanId, byte flags, byte[] attributes) {
    define(contextId, traceId, spanId, flags, attributes, ContextBridge.OWN_ATTRIBUTES);
  }

  private void define(int contextId, byte[] traceId, byte[] spanId, byte flags, byte[] attributes, int set) {
    ByteBuffer trace = ByteBuffer.wrap(traceId); // big-endian, as W3C ids are
    bridge.define(contextId, trace.getLong(0), trace.getLong(8), ByteBuffer.wrap(spanId).getLong(0), flags, attributes, set);
  }

  private static byte[] ids(int length, int first) {
    byte[] id = new byte[length];
    for (int i = 0; i < length; i++) {
      id[i] = (byte) (first + i);
    }
    return id;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
