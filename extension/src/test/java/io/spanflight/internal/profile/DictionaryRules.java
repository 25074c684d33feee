package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.profiles.v1development.Function;
import io.opentelemetry.proto.profiles.v1development.KeyValueAndUnit;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Mapping;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Stack;
import java.util.HashSet;

/** The dictionary rules of DESIGN.md section 5, checked on a decoded dictionary. */
final class DictionaryRules {
  private DictionaryRules() {}

  static void check(ProfilesDictionary d) {
    assertThat(d.getStringTable(0)).isEmpty();
    assertThat(d.getMappingTable(0)).isEqualTo(Mapping.getDefaultInstance());
    assertThat(d.getLocationTable(0)).isEqualTo(Location.getDefaultInstance());
    assertThat(d.getFunctionTable(0)).isEqualTo(Function.getDefaultInstance());
    assertThat(d.getLinkTable(0)).isEqualTo(Link.getDefaultInstance());
    assertThat(d.getStackTable(0)).isEqualTo(Stack.getDefaultInstance());
    assertThat(d.getAttributeTable(0)).isEqualTo(KeyValueAndUnit.getDefaultInstance());

    assertThat(new HashSet<>(d.getStringTableList())).hasSize(d.getStringTableCount());
    assertThat(new HashSet<>(d.getFunctionTableList())).hasSize(d.getFunctionTableCount());
    assertThat(new HashSet<>(d.getLocationTableList())).hasSize(d.getLocationTableCount());
    assertThat(new HashSet<>(d.getStackTableList())).hasSize(d.getStackTableCount());
    assertThat(new HashSet<>(d.getLinkTableList())).hasSize(d.getLinkTableCount());

    for (int i = 1; i < d.getLinkTableCount(); i++) {
      assertThat(d.getLinkTable(i).getTraceId().size()).isEqualTo(16);
      assertThat(d.getLinkTable(i).getSpanId().size()).isEqualTo(8);
    }
    for (int i = 1; i < d.getLocationTableCount(); i++) {
      Location location = d.getLocationTable(i);
      assertThat(location.getLinesCount()).isEqualTo(1);
      assertThat(location.getLines(0).getFunctionIndex()).isBetween(1, d.getFunctionTableCount() - 1);
      assertThat(location.getAttributeIndicesList())
          .anySatisfy(
              a -> {
                KeyValueAndUnit kv = d.getAttributeTable(a);
                assertThat(d.getStringTable(kv.getKeyStrindex())).isEqualTo("profile.frame.type");
                assertThat(kv.getValue().getStringValue()).isEqualTo("jvm");
              });
    }
    for (Function f : d.getFunctionTableList().subList(1, d.getFunctionTableCount())) {
      assertThat(f.getNameStrindex()).isBetween(1, d.getStringTableCount() - 1);
      assertThat(d.getStringTable(f.getFilenameStrindex())).endsWith(".java");
    }
    for (Stack s : d.getStackTableList()) {
      assertThat(s.getLocationIndicesList()).allMatch(i -> i > 0 && i < d.getLocationTableCount());
    }
  }
}
