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
    if (!(method || wait) || !link.hasSpan() || !link.sampled() || !events.wanted(method, durationNanos)) {
      return;
    }
    String function = method && leaf >= 0 && stacks != null
        ? stacks.className(leaf) + "." + stacks.methodName(leaf) : method ? "method" : null;
    String text = stacks == null || stack < 0 ? null : text(stacks, stack);
    events.add(link.spanIdNumber(),
        new InferredEvent(type, startNanos, durationNanos, threadId, function, text, detail), System.nanoTime());
  }

  /** The top frames of {@code stack}, one {@code at class.method(line N)} per line. */
  static String text(InternedStacks stacks, int stack) {
    int length = stacks.stackLength(stack);
    StringBuilder text = new StringBuilder();
    for (int position = 0; position < Math.min(length, MAX_FRAMES); position++) {
      int frame = stacks.frame(stack, position);
      int method = stacks.frameMethod(frame);
      int line = stacks.frameLine(frame);
      text.append("at ").append(stacks.className(method)).append('.').append(stacks.methodName(method));
      text.append(line >= 0 ? "(line " + line + ")" : "()").append('\n');
    }
    if (length > MAX_FRAMES) {
      text.append("... ").append(length - MAX_FRAMES).append(" more\n");
    }
    return text.toString();
  }

  /** The same for a stack the method hooks captured ({@code null}: none). */
  static String text(StackWalker.StackFrame[] frames) {
    if (frames == null) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
      StackWalker.StackFrame frame = frames[i];
      text.append("at ").append(frame.getClassName()).append('.').append(frame.getMethodName());
      text.append(frame.getLineNumber() >= 0 ? "(line " + frame.getLineNumber() + ")" : "()").append('\n');
    }
    if (frames.length > MAX_FRAMES) {
      text.append("... ").append(frames.length - MAX_FRAMES).append(" more\n");
    }
    return text.toString();
  }
}
