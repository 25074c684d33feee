package io.spanflight.smoke.app.propagation;

/**
 * Writes a request's id into the call stack, so that every CPU sample taken in its work says
 * which request it belongs to, whatever thread ran it.
 *
 * <p>{@link #burn} calls through one frame per hexadecimal digit of the id, {@code d0} ...
 * {@code df}, most significant digit nearest the thread's root, then the {@link SpanWork} method
 * of the role. Read leaf first, the {@code RequestTag.dX} frames below the burn frame are the
 * id's digits from least to most significant ({@code AccuracySmokeTest} decodes them).
 */
public final class RequestTag {
  /** Hexadecimal digits written per id: ids 0 to 65535. */
  public static final int DIGITS = 4;

  public static final int MAX_ID = (1 << (4 * DIGITS)) - 1;

  /** Frame names are this prefix plus one hexadecimal digit. */
  public static final String DIGIT_FRAME_PREFIX = RequestTag.class.getName() + ".d";

  private RequestTag() {}

  /** Spends about {@code millis} ms of CPU in {@code role}'s method, below the frames of {@code id}. */
  public static long burn(int id, Role role, long millis) {
    if (id < 0 || id > MAX_ID) {
      throw new IllegalArgumentException("request id " + id + " outside 0.." + MAX_ID);
    }
    return digit(id, DIGITS - 1, role, millis);
  }

  private static long digit(int id, int position, Role role, long millis) {
    if (position < 0) {
      return role.burn(millis);
    }
    switch ((id >>> (4 * position)) & 0xf) {
      case 0:
        return d0(id, position, role, millis);
      case 1:
        return d1(id, position, role, millis);
      case 2:
        return d2(id, position, role, millis);
      case 3:
        return d3(id, position, role, millis);
      case 4:
        return d4(id, position, role, millis);
      case 5:
        return d5(id, position, role, millis);
      case 6:
        return d6(id, position, role, millis);
      case 7:
        return d7(id, position, role, millis);
      case 8:
        return d8(id, position, role, millis);
      case 9:
        return d9(id, position, role, millis);
      case 10:
        return da(id, position, role, millis);
      case 11:
        return db(id, position, role, millis);
      case 12:
        return dc(id, position, role, millis);
      case 13:
        return dd(id, position, role, millis);
      case 14:
        return de(id, position, role, millis);
      default:
        return df(id, position, role, millis);
    }
  }

  static long d0(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d1(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d2(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d3(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d4(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d5(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d6(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d7(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d8(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long d9(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long da(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long db(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long dc(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long dd(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long de(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }

  static long df(int id, int position, Role role, long millis) {
    return digit(id, position - 1, role, millis);
  }
}
