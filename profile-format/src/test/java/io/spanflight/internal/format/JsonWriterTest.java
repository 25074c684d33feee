package io.spanflight.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import org.junit.jupiter.api.Test;

/** The one JSON writer: its layout, and its two escaping modes. */
class JsonWriterTest {

  @Test
  void placesCommasAndColonsAndWritesEveryKindOfValue() {
    StringBuilder out = new StringBuilder();
    JsonWriter.to(out).beginObject()
        .name("a").beginArray().value(1).value(-2L).value(true).value(0.5).nullValue().endArray()
        .name("b").beginObject().endObject()
        .name("c").beginArray().beginArray().endArray().beginObject().name("d").value("e").endObject().endArray()
        .endObject();

    assertThat(out).hasToString("{\"a\":[1,-2,true,0.5,null],\"b\":{},\"c\":[[],{\"d\":\"e\"}]}");
  }

  @Test
  void writesNanAndInfinitiesAsProtobufJsonStrings() {
    StringBuilder out = new StringBuilder();
    JsonWriter.to(out).beginArray().value(Double.NaN).value(Double.POSITIVE_INFINITY)
        .value(Double.NEGATIVE_INFINITY).endArray();

    assertThat(out).hasToString("[\"NaN\",\"Infinity\",\"-Infinity\"]");
  }

  @Test
  void escapesWhatRfc8259RequiresAndNothingElse() {
    StringBuilder out = new StringBuilder();
    JsonWriter.to(out).value("q\" b\\ \n\r\t \u0001\u001f </script> & \u2028 é");

    assertThat(out).hasToString("\"q\\\" b\\\\ \\n\\r\\t \\u0001\\u001f </script> & \u2028 é\"");
  }

  @Test
  void htmlSafeAlsoEscapesMarkupAndJavaScriptLineSeparators() {
    StringBuilder out = new StringBuilder();
    JsonWriter.htmlSafe(out).beginObject().name("<k>").value("</script>&\u2028\u2029\n é").endObject();

    assertThat(out).hasToString(
        "{\"\\u003ck\\u003e\":\"\\u003c/script\\u003e\\u0026\\u2028\\u2029\\n é\"}");
  }

  @Test
  void quoteAndEscapeMatchTheWriter() {
    assertThat(JsonString.quote("a\"\\\n\u0000b")).isEqualTo("\"a\\\"\\\\\\n\\u0000b\"");
    assertThat(JsonString.escape('\u001b')).isEqualTo("\\u001b");
    assertThat(JsonString.escape('\u009f')).isEqualTo("\\u009f");
    assertThat(JsonString.needsEscape('<', false)).isFalse();
    assertThat(JsonString.needsEscape('<', true)).isTrue();
  }

  @Test
  void aFailingTargetThrowsUnchecked() {
    Writer failing = new Writer() {
      @Override
      public void write(char[] buffer, int offset, int length) throws IOException {
        throw new IOException("disk full");
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };

    assertThatThrownBy(() -> JsonWriter.htmlSafe(failing).beginObject())
        .isInstanceOf(UncheckedIOException.class)
        .hasRootCauseMessage("disk full");
  }
}
