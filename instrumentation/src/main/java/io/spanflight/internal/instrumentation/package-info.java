/**
 * Bytecode hooks that the {@code ContextStorage} wrapper cannot replace.
 *
 * <p>Empty on purpose for now: DESIGN.md rule 7 says a hook is added only where a failing test
 * shows that the wrapper misses a context switch. The first one planned is the
 * {@code VirtualThread} mount/unmount hook, so that a carrier's native thread-context record
 * shows the mounted virtual thread's context (issue "Context follows the work").
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.instrumentation;
