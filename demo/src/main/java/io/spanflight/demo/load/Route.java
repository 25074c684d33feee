package io.spanflight.demo.load;

/**
 * One stream of load: {@code clients} closed-loop clients, each sending {@code GET path}, waiting
 * for the answer, and sending the next at once.
 */
public record Route(String path, int clients) {
  public Route {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with /: " + path);
    }
    if (clients < 1) {
      throw new IllegalArgumentException("clients must be at least 1: " + clients);
    }
  }

  /** The path without its query string, as a name for reports. */
  public String endpoint() {
    int q = path.indexOf('?');
    return q < 0 ? path : path.substring(0, q);
  }
}
