package io.spanflight.internal.instrumentation;

import io.spanflight.internal.instrumentation.bootstrap.MethodClock;
import java.util.Collection;

/**
 * The two method filters in force, {@code methodtiming} and {@code methodtrace}, and what they
 * make of a method: its mode ({@link MethodClock#TIMED}, {@link MethodClock#TRACED}, both, or 0).
 *
 * <p>Not API: internal to Spanflight.
 */
final class MethodSelection {
  final MethodFilter timing;
  final MethodFilter trace;

  MethodSelection(MethodFilter timing, MethodFilter trace) {
    this.timing = timing;
    this.trace = trace;
  }

  boolean isEmpty() {
    return timing.isEmpty() && trace.isEmpty();
  }

  boolean namesClass(String className) {
    return timing.namesClass(className) || trace.namesClass(className);
  }

  boolean needsMembers() {
    return timing.needsMembers() || trace.needsMembers();
  }

  boolean mayMatch(String className, Collection<String> methodNames, Collection<String> annotations) {
    return timing.mayMatch(className, methodNames, annotations)
        || trace.mayMatch(className, methodNames, annotations);
  }

  int mode(String className, String methodName, Collection<String> classAnnotations, Collection<String> methodAnnotations) {
    int mode = 0;
    if (timing.matches(className, methodName, classAnnotations, methodAnnotations)) {
      mode |= MethodClock.TIMED;
    }
    if (trace.matches(className, methodName, classAnnotations, methodAnnotations)) {
      mode |= MethodClock.TRACED;
    }
    return mode;
  }
}
