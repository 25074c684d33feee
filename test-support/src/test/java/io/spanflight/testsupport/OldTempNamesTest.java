package io.spanflight.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OldTempNamesTest {
  @Test
  void theFirstEightBytesOfTheSha256AsLowerCaseHexStandBetweenPrefixAndSuffix() {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (FIPS 180-2)
    byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);

    assertThat(OldTempNames.of("libspanflight-", abc, ".so")).isEqualTo("libspanflight-ba7816bf8f01cfea.so");
  }
}
