package io.spanflight.smoke.app.propagation;

/**
 * The query of an accuracy-suite request: {@code id} (0 to {@link RequestTag#MAX_ID}, written
 * into the stack of its work) and {@code ms} (CPU to burn, 1 to 1000).
 */
public record RequestParams(int id, long millis) {
  static final long MAX_MILLIS = 1_000;

  /** Parses {@code id=..&ms=..}; throws IllegalArgumentException naming what is wrong. */
  public static RequestParams parse(String rawQuery) {
    Integer id = null;
    Long millis = null;
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        if (pair.startsWith("id=")) {
          id = Integer.valueOf(pair.substring(3));
        } else if (pair.startsWith("ms=")) {
          millis = Long.valueOf(pair.substring(3));
        }
      }
    }
    if (id == null || id < 0 || id > RequestTag.MAX_ID) {
      throw new IllegalArgumentException("id must be 0.." + RequestTag.MAX_ID + " in " + rawQuery);
    }
    if (millis == null || millis < 1 || millis > MAX_MILLIS) {
      throw new IllegalArgumentException("ms must be 1.." + MAX_MILLIS + " in " + rawQuery);
    }
    return new RequestParams(id, millis);
  }
}
