package io.spanflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Without the agent: entries per thread. Surefire runs with assertions on, so limits throw here. */
class SpanflightContextTest {

  @Test
  void entriesAreImmutableAndReplaceByKey() {
    SpanflightContext base = SpanflightContext.empty().with("tenant", "a");
    SpanflightContext both = base.with("route", "/x").with("tenant", "b");
    assertThat(base.asMap()).containsExactly(java.util.Map.entry("tenant", "a"));
    assertThat(both.get("tenant")).isEqualTo("b");
    assertThat(both.asMap().keySet()).containsExactly("tenant", "route");
    assertThat(both.with("tenant", null).asMap().keySet()).containsExactly("route");
  }

  @Test
  void scopesInstallAndRestoreOnTheirThread() throws Exception {
    SpanflightContext outer = SpanflightContext.empty().with("tenant", "a");
    try (ContextScope ignored = outer.makeCurrent()) {
      assertThat(SpanflightContext.current()).isEqualTo(outer);
      try (ContextScope inner = SpanflightContext.current().with("job", "j").makeCurrent()) {
        assertThat(SpanflightContext.current().asMap()).hasSize(2);
      }
      assertThat(SpanflightContext.current()).isEqualTo(outer);
      // captured here, installed on another thread
      SpanflightContext captured = SpanflightContext.current();
      String seen = CompletableFuture.supplyAsync(() -> {
        try (ContextScope s = captured.makeCurrent()) {
          return SpanflightContext.current().get("tenant");
        }
      }).get();
      assertThat(seen).isEqualTo("a");
    }
    assertThat(SpanflightContext.current()).isEqualTo(SpanflightContext.empty());
  }

  @Test
  void entriesOverTheLimitsAreRefusedWithAMessageInDevelopment() {
    assertThat(SpanflightContextTest.class.desiredAssertionStatus()).as("surefire enables -ea").isTrue();
    assertThatThrownBy(() -> SpanflightContext.empty().with("k", "v".repeat(256)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("255 bytes");
    assertThatThrownBy(() -> SpanflightContext.empty().with("", "v")).hasMessageContaining("empty");
    SpanflightContext full = SpanflightContext.empty();
    for (int i = 0; i < 2; i++) {
      full = full.with("k" + i, "v".repeat(250));
    }
    SpanflightContext almost = full;
    assertThatThrownBy(() -> almost.with("k2", "v".repeat(250))).hasMessageContaining("612 bytes");
  }

  @Test
  void inProductionARefusedEntryIsLeftOutAndCounted() throws Exception {
    byte[] bytes;
    try (var in = RefusingCaller.class.getResourceAsStream("RefusingCaller.class")) {
      bytes = in.readAllBytes();
    }
    ClassLoader production = new ClassLoader(SpanflightContext.class.getClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(RefusingCaller.class.getName())) {
          return super.loadClass(name, resolve);
        }
        setClassAssertionStatus(name, false);
        return defineClass(name, bytes, 0, bytes.length);
      }
    };
    long before = SpanflightContext.refusedEntries();
    @SuppressWarnings("unchecked")
    java.util.function.Supplier<SpanflightContext> caller = (java.util.function.Supplier<SpanflightContext>)
        production.loadClass(RefusingCaller.class.getName()).getDeclaredConstructor().newInstance();
    assertThat(caller.get().asMap()).containsOnlyKeys("ok");
    assertThat(SpanflightContext.refusedEntries()).isEqualTo(before + 1);
  }
}
