package io.spanflight.internal.instrumentation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A method filter in the JDK's syntax (JEP 520, the {@code filter} setting of {@code
 * jdk.MethodTiming} and {@code jdk.MethodTrace}): {@code ;}-separated parts, each {@code
 * com.example.Foo} (every method of that class), {@code com.example.Foo::bar} (its methods named
 * bar), {@code ::bar} (methods named bar in any class) or {@code @com.example.Traced} (methods
 * annotated with it, and every method of classes annotated with it). The syntax is checked where
 * the setting is read; a part that does not fit is ignored here.
 *
 * <p>Remembers which parts matched a method, for the "matches nothing" log line.
 *
 * <p>Not API: internal to Spanflight.
 */
final class MethodFilter {
  static final MethodFilter NONE = parse("");

  private final String text;
  private final List<String[]> parts = new ArrayList<>(); // {class or "", method or "", annotation or ""}
  private final AtomicIntegerArray matched;

  private MethodFilter(String text) {
    this.text = text;
    for (String raw : text.split(";")) {
      String part = raw.trim();
      if (part.startsWith("@")) {
        parts.add(new String[] {"", "", part.substring(1)});
      } else if (part.contains("::")) {
        int at = part.indexOf("::");
        parts.add(new String[] {part.substring(0, at), part.substring(at + 2), ""});
      } else if (!part.isEmpty()) {
        parts.add(new String[] {part, "", ""});
      }
    }
    this.matched = new AtomicIntegerArray(parts.size());
  }

  static MethodFilter parse(String text) {
    return new MethodFilter(text == null ? "" : text.trim());
  }

  boolean isEmpty() {
    return parts.isEmpty();
  }

  /** Whether a part names {@code className} (as {@code Foo} or {@code Foo::bar}). */
  boolean namesClass(String className) {
    for (String[] part : parts) {
      if (part[0].equals(className)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a part matches by method name or annotation in any class (::bar, @Traced). */
  boolean needsMembers() {
    for (String[] part : parts) {
      if (part[0].isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether some method of a class could match: cheap checks on what the class declares.
   *
   * @param methodNames the names of the methods it declares
   * @param annotations the class's annotations and those of its methods (type names)
   */
  boolean mayMatch(String className, Collection<String> methodNames, Collection<String> annotations) {
    for (String[] part : parts) {
      boolean hit =
          !part[0].isEmpty()
              ? part[0].equals(className) && (part[1].isEmpty() || methodNames.contains(part[1]))
              : !part[1].isEmpty() ? methodNames.contains(part[1]) : annotations.contains(part[2]);
      if (hit) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the method matches some part (and marks those parts matched).
   *
   * @param classAnnotations the annotations of its class (type names)
   * @param methodAnnotations its own annotations (type names)
   */
  boolean matches(
      String className, String methodName, Collection<String> classAnnotations, Collection<String> methodAnnotations) {
    boolean any = false;
    for (int i = 0; i < parts.size(); i++) {
      String[] part = parts.get(i);
      boolean hit =
          !part[2].isEmpty()
              ? classAnnotations.contains(part[2]) || methodAnnotations.contains(part[2])
              : (part[0].isEmpty() || part[0].equals(className))
                  && (part[1].isEmpty() || part[1].equals(methodName));
      if (hit) {
        matched.set(i, 1);
        any = true;
      }
    }
    return any;
  }

  /** The parts that no method matched so far, as written. */
  List<String> unmatchedParts() {
    List<String> unmatched = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      if (matched.get(i) == 0) {
        String[] part = parts.get(i);
        unmatched.add(
            !part[2].isEmpty() ? "@" + part[2] : part[1].isEmpty() ? part[0] : part[0] + "::" + part[1]);
      }
    }
    return unmatched;
  }

  @Override
  public String toString() {
    return text;
  }
}
