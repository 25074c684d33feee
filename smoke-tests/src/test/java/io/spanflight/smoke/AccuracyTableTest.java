package io.spanflight.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import io.spanflight.smoke.AccuracyTable.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The accuracy table's verdicts: a path's thresholds, and the bound on stacks that name no request. */
class AccuracyTableTest {

  @Test
  void aFewStacksWithoutIdPassAndMoreFail() {
    AccuracyTable table = new AccuracyTable(List.of("pool"), 100);
    table.add("pool", Outcome.CORRECT, 2000, null);
    table.undecoded(2, "[burnInOuterSpan, Instrumenter.end]");
    assertThat(table.failing()).isEmpty();
    assertThat(table.render("t")).contains("(stack without id)", "pass (<= 0.1 % of all samples)");

    table.undecoded(1, "[burnInOuterSpan]");
    assertThat(table.failing()).extracting(row -> row.path).containsExactly(AccuracyTable.UNDECODED);
  }

  @Test
  void aPathNeedsItsShareOfCorrectSamples() {
    AccuracyTable table = new AccuracyTable(List.of("pool"), 100);
    table.add("pool", Outcome.CORRECT, 980, null);
    table.add("pool", Outcome.UNLINKED, 20, "on a thread of its own");
    assertThat(table.failing()).extracting(row -> row.path).containsExactly("pool");
  }
}
