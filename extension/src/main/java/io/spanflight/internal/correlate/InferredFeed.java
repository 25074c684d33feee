package io.spanflight.internal.correlate;

import io.spanflight.internal.costs.InferredEvent;
import io.spanflight.internal.costs.InferredEvents;
import io.spanflight.internal.format.CostKind;
import io.spanflight.internal.profile.InternedStacks;
import io.spanflight.internal.registry.ContextRecord;

/**
 * Hands the waits and traced calls that the join gave a sampled span to {@link InferredEvents},
 * where they wait for the span to be exported and become its children: what they were (the sample
 * type), when (the nanoTime clock the join placed them on), how long, on which thread, and their
 * top {@value #MAX_FRAMES} frames as text. Only events the join linked to a span of a sampled
 * trace come here, so an unknown or unsampled one never becomes a span.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class InferredFeed {
  /** Frames kept in {@code code.stacktrace}; a longer stack ends with a "... N more" line. */
  public static final int MAX_FRAMES = 8;
  static final String METHOD_TRACE = "method_trace";

  private InferredFeed() {}

  /** Offers a joined event of {@code link}'s span, if it is a wait or a traced call that is wanted. */
  static void offer(InferredEvents events, InternedStacks stacks, ContextRecord link, int costKind, String type,
      long threadId, long startNanos, long durationNanos, int stack, int leaf, String detail) {
    boolean method = METHOD_TRACE.equals(type);
    boolean wait = costKind == CostKind.LOCK || costKind == CostKind.PARK
        || costKind == CostKind.SOCKET || costKind == CostKind.FILE;
    if (!(method || wait) || !wanted(events, link, method, durationNanos)) {
      return;
    }
    String function = method && leaf >= 0 && stacks != null
        ? stacks.className(leaf) + "." + stacks.methodName(leaf) : method ? "method" : null;
    String text = stacks == null || stack < 0 ? null : text(stacks, stack);
    events.add(link.spanIdNumber(),
        new InferredEvent(type, startNanos, durationNanos, threadId, function, text, detail), System.nanoTime());
  }

  /**
   * Whether a wait ({@code method} false) or traced call of {@code link}'s span becomes a span: the
   * span is of a sampled trace and the kind and duration are wanted. The JFR join and the JDK 17/21
   * method hooks both ask this.
   */
  static boolean wanted(InferredEvents events, ContextRecord link, boolean method, long durationNanos) {
    return link.hasSpan() && link.sampled() && events.wanted(method, durationNanos);
  }

  /** The top frames of {@code stack}, one {@code at class.method(line N)} per line. */
  static String text(InternedStacks stacks, int stack) {
    int length = stacks.stackLength(stack);
    StringBuilder text = new StringBuilder();
    for (int position = 0; position < Math.min(length, MAX_FRAMES); position++) {
      int frame = stacks.frame(stack, position);
      int method = stacks.frameMethod(frame);
      appendFrame(text, stacks.className(method), stacks.methodName(method), stacks.frameLine(frame));
    }
    return appendMore(text, length);
  }

  /** The same for a stack the method hooks captured ({@code null}: none). */
  static String text(StackWalker.StackFrame[] frames) {
    if (frames == null) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
      appendFrame(text, frames[i].getClassName(), frames[i].getMethodName(), frames[i].getLineNumber());
    }
    return appendMore(text, frames.length);
  }

  private static void appendFrame(StringBuilder text, String className, String methodName, int line) {
    text.append("at ").append(className).append('.').append(methodName);
    text.append(line >= 0 ? "(line " + line + ")" : "()").append('\n');
  }

  /** The text, with a {@code ... N more} line when the stack has more than {@value #MAX_FRAMES} frames. */
  private static String appendMore(StringBuilder text, int length) {
    if (length > MAX_FRAMES) {
      text.append("... ").append(length - MAX_FRAMES).append(" more\n");
    }
    return text.toString();
  }
}
