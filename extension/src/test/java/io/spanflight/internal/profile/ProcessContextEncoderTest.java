package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.processcontext.v1development.ProcessContext;
import io.opentelemetry.sdk.resources.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessContextEncoderTest {

  @Test
  void theOfficialClassReadsResourceSchemaAndKeyMap() throws Exception {
    Resource resource = Resource.create(Attributes.builder().put("service.name", "checkout").build());
    byte[] bytes = ProcessContextEncoder.encode(resource, List.of("http.route", "tenant"));

    ProcessContext parsed = ProcessContext.parseFrom(bytes);
    assertThat(parsed.toByteArray()).isEqualTo(bytes);
    assertThat(parsed.getResource().getAttributesList())
        .contains(KeyValue.newBuilder().setKey("service.name").setValue(AnyValue.newBuilder().setStringValue("checkout")).build());
    assertThat(parsed.getAttributesList()).extracting(KeyValue::getKey)
        .containsExactly("threadlocal.schema_version", "threadlocal.attribute_key_map");
    assertThat(parsed.getAttributes(0).getValue().getStringValue()).isEqualTo("tlsdesc_v1_dev");
    assertThat(parsed.getAttributes(1).getValue().getArrayValue().getValuesList())
        .extracting(AnyValue::getStringValue)
        .containsExactly("http.route", "tenant");
  }

  @Test
  void anEmptyKeyMapIsAnEmptyArray() throws Exception {
    ProcessContext parsed = ProcessContext.parseFrom(ProcessContextEncoder.encode(Resource.empty(), List.of()));
    assertThat(parsed.getAttributes(1).getValue().hasArrayValue()).isTrue();
    assertThat(parsed.getAttributes(1).getValue().getArrayValue().getValuesCount()).isZero();
  }
}
