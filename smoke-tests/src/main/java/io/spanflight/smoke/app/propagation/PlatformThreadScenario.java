package io.spanflight.smoke.app.propagation;

/** All work on the platform thread that handles the request (the HTTP server's pool thread). */
final class PlatformThreadScenario implements Scenario {
  @Override
  public String name() {
    return "platform";
  }

  @Override
  public long handle(int id, long millis) {
    long acc = 0;
    for (int i = 0; i < CHUNKS; i++) {
      acc += RequestTag.burn(id, Role.SERVER, Scenario.chunk(millis));
    }
    return acc;
  }
}
