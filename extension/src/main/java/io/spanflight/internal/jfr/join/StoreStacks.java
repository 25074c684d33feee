package io.spanflight.internal.jfr.join;

import io.spanflight.internal.jfr.chunk.ConstantStore;
import io.spanflight.internal.profile.InternedStacks;

/**
 * The reader's {@link ConstantStore} as the profile sees stacks ({@link InternedStacks}), so that
 * the chunk reader does not know the profile model. One per joiner, made with it: the profile
 * compares the stacks object by identity to know whether the indexes it cached still apply.
 *
 * <p>Not API: internal to Spanflight.
 */
public final class StoreStacks implements InternedStacks {
  private final ConstantStore store;

  public StoreStacks(ConstantStore store) {
    this.store = store;
  }

  @Override
  public int generation() {
    return store.generation();
  }

  @Override
  public int stackLength(int stack) {
    return store.stackLength(stack);
  }

  @Override
  public int frame(int stack, int position) {
    return store.frame(stack, position);
  }

  @Override
  public int frameMethod(int frame) {
    return store.frameMethod(frame);
  }

  @Override
  public int frameLine(int frame) {
    return store.frameLine(frame);
  }

  @Override
  public String className(int method) {
    return store.className(method);
  }

  @Override
  public String methodName(int method) {
    return store.methodName(method);
  }

  @Override
  public String methodDescriptor(int method) {
    return store.methodDescriptor(method);
  }
}
