package io.spanflight.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FunctionNamesTest {
  private final FunctionNames names = new FunctionNames();

  private static String systemNameIn(DictionaryBuilder dictionary, int function) {
    return dictionary.strings.get(dictionary.functions.systemName(function));
  }

  @Test
  void twoIntervalsHoldTheSameStringsForAFunctionNotNewOnes() {
    DictionaryBuilder first = new DictionaryBuilder(names);
    DictionaryBuilder next = new DictionaryBuilder(names);

    String inFirst = systemNameIn(first, first.function("com.example.Shop", "checkout", "()V"));
    String inNext = systemNameIn(next, next.function("com.example.Shop", "checkout", "()V"));

    assertThat(inFirst).isEqualTo("com.example.Shop.checkout()V");
    assertThat(inNext).as("built once, kept across intervals").isSameAs(inFirst);
    int file = next.functions.fileName(next.function("com.example.Shop$Cart", "add", "(I)V"));
    assertThat(next.strings.get(file)).isEqualTo("Shop.java");
  }

  @Test
  void itHoldsAtMostItsBoundAndStillNamesEveryFunction() {
    for (int i = 0; i < 3 * FunctionNames.MAX_FUNCTIONS; i++) {
      names.of("C" + i, "m", "()V");
    }
    assertThat(names.size()).isLessThanOrEqualTo(FunctionNames.MAX_FUNCTIONS);
    assertThat(names.of("C1", "m", "()V")).containsExactly("C1.m", "C1.m()V", "C1.java");
  }

  @Test
  void aFunctionInUseKeepsItsNamesWhileNewOnesComeAndGo() {
    String[] inUse = names.of("com.example.Shop", "checkout", "()V");
    String[] once = names.of("com.example.Once", "run", "()V");
    for (int i = 0; i < 4 * FunctionNames.MAX_FUNCTIONS; i++) {
      names.of("C" + i, "m", "()V"); // functions met once, as a service's profiles keep meeting
      if (i % (FunctionNames.MAX_FUNCTIONS / 4) == 0) {
        assertThat(names.of("com.example.Shop", "checkout", "()V")).isSameAs(inUse);
      }
    }
    assertThat(names.of("com.example.Shop", "checkout", "()V")).isSameAs(inUse);
    assertThat(names.of("com.example.Once", "run", "()V")).as("let go, then built again").isNotSameAs(once).isEqualTo(once);
  }
}
