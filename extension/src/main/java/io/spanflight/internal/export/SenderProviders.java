package io.spanflight.internal.export;

import java.util.ServiceLoader;

/**
 * Finds the agent's OTLP senders. Inside the javaagent, the SDK's sender SPIs resolve in the
 * agent's class loader, which holds its OkHttp-based senders; the extension bundles none.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class SenderProviders {
  private SenderProviders() {}

  /** The first provider of {@code spi}; IllegalStateException when there is none. */
  public static <T> T load(Class<T> spi) {
    return ServiceLoader.load(spi, spi.getClassLoader())
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no " + spi.getSimpleName() + " found (is this running inside the OpenTelemetry javaagent?)"));
  }
}
