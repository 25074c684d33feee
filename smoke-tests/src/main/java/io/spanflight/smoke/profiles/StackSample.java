package io.spanflight.smoke.profiles;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One decoded profile sample.
 *
 * @param frames fully qualified method names ({@code com.example.Clazz.method}), leaf first
 * @param link the span the sample is linked to, or {@code null} for none (link index 0)
 * @param count the sum of its values (samples, bytes or nanoseconds by sample type), else its
 *     timestamp count
 * @param attributes its sample attributes (such as {@code http.route}), string values
 */
public record StackSample(List<String> frames, SpanLink link, long count, Map<String, String> attributes) {

  /** A sample without attributes. */
  public StackSample(List<String> frames, SpanLink link, long count) {
    this(frames, link, count, Map.of());
  }

  public boolean isLinked() {
    return link != null;
  }

  /** Whether any frame is exactly {@code function}. */
  public boolean contains(String function) {
    return frames.contains(function);
  }

  /** The leaf-most frame that is not JDK code ({@code java.}, {@code jdk.}, {@code sun.}, ...). */
  public Optional<String> leafApplicationFrame() {
    return frames.stream().filter(frame -> !isJdkFrame(frame)).findFirst();
  }

  static boolean isJdkFrame(String frame) {
    return frame.startsWith("java.") || frame.startsWith("jdk.") || frame.startsWith("sun.")
        || frame.startsWith("com.sun.") || frame.startsWith("javax.");
  }
}
