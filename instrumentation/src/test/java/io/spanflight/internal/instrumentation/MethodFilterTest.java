package io.spanflight.internal.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The JDK's method filter grammar, as JFR reads it on JDK 25. */
class MethodFilterTest {
  private static final Set<String> NONE = Set.of();

  @Test
  void aClassSelectsEveryMethodOfThatClassOnly() {
    MethodFilter filter = MethodFilter.parse("com.example.Foo");
    assertThat(filter.matches("com.example.Foo", "bar", NONE, NONE)).isTrue();
    assertThat(filter.matches("com.example.Foo", "baz", NONE, NONE)).isTrue();
    assertThat(filter.matches("com.example.FooBar", "bar", NONE, NONE)).isFalse();
    assertThat(filter.matches("com.example.Foo$Inner", "bar", NONE, NONE)).isFalse();
  }

  @Test
  void classAndMethodSelectsThatMethodOfThatClass() {
    MethodFilter filter = MethodFilter.parse("com.example.Foo::bar");
    assertThat(filter.matches("com.example.Foo", "bar", NONE, NONE)).isTrue();
    assertThat(filter.matches("com.example.Foo", "baz", NONE, NONE)).isFalse();
    assertThat(filter.matches("com.example.Other", "bar", NONE, NONE)).isFalse();
  }

  @Test
  void aMethodNameAloneSelectsItInEveryClass() {
    MethodFilter filter = MethodFilter.parse("::bar");
    assertThat(filter.matches("a.A", "bar", NONE, NONE)).isTrue();
    assertThat(filter.matches("b.B", "bar", NONE, NONE)).isTrue();
    assertThat(filter.matches("b.B", "barn", NONE, NONE)).isFalse();
    assertThat(filter.needsMembers()).isTrue();
  }

  @Test
  void anAnnotationSelectsAnnotatedMethodsAndEveryMethodOfAnnotatedClasses() {
    MethodFilter filter = MethodFilter.parse("@com.example.Traced");
    Set<String> traced = Set.of("com.example.Traced");
    assertThat(filter.matches("a.A", "m", NONE, traced)).isTrue();
    assertThat(filter.matches("a.A", "m", traced, NONE)).isTrue();
    assertThat(filter.matches("a.A", "m", NONE, Set.of("com.example.Other"))).isFalse();
    assertThat(filter.mayMatch("a.A", List.of("m"), traced)).isTrue();
    assertThat(filter.mayMatch("a.A", List.of("m"), NONE)).isFalse();
  }

  @Test
  void partsAreSemicolonSeparatedAndThoseThatMatchedNothingAreNamed() {
    MethodFilter filter = MethodFilter.parse("com.example.Foo::bar; ::baz ;@com.example.Traced");
    assertThat(filter.matches("x.X", "baz", NONE, NONE)).isTrue();
    assertThat(filter.unmatchedParts()).containsExactly("com.example.Foo::bar", "@com.example.Traced");
    assertThat(filter.namesClass("com.example.Foo")).isTrue();
    assertThat(filter.namesClass("x.X")).isFalse();
  }

  @Test
  void anEmptyFilterSelectsNothing() {
    MethodFilter filter = MethodFilter.parse("");
    assertThat(filter.isEmpty()).isTrue();
    assertThat(filter.mayMatch("a.A", List.of("m"), NONE)).isFalse();
    assertThat(filter.unmatchedParts()).isEmpty();
  }
}
