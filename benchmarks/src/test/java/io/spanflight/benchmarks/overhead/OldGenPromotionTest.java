package io.spanflight.benchmarks.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The promotion line states rates a minute and per 1 000 requests from G1's byte counts. */
class OldGenPromotionTest {
  private static final long MB = 1024 * 1024;

  @Test
  void bytesBecomeMegabytesAMinuteAndPerThousandRequests() {
    OldGenPromotion.Promoted promoted = new OldGenPromotion.Promoted(3 * MB, MB, 120);

    String line = promoted.describe(Duration.ofSeconds(30), 8000);

    assertThat(line).contains("6.00 MB a minute promoted in PLABs + 2.00 outside", "0.500 MB per 1 000 requests",
        "120 collections in 30 s");
  }

  @Test
  void noRequestsIsNoPerRequestFigure() {
    assertThat(new OldGenPromotion.Promoted(0, 0, 0).describe(Duration.ofSeconds(60), 0))
        .contains("0.00 MB a minute", "NaN MB per 1 000 requests");
  }
}
