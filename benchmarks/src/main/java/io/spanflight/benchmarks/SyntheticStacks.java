package io.spanflight.benchmarks;

import io.spanflight.internal.profile.InternedStacks;
import java.util.Random;

/**
 * Random stacks as a JFR reader would hand them out ({@link InternedStacks}): {@code stacks}
 * stacks of {@code depth} frames, each frame one of {@code methods} methods (spread over 50
 * classes) at a line from 10 to 209. Frame {@code s * depth + p} is position {@code p} of stack
 * {@code s}; the indexes never change (generation 0). For benchmarks that feed a
 * {@code ProfileCollector} without JFR.
 */
final class SyntheticStacks implements InternedStacks {
  private final int depth;
  private final int[] frameMethods;
  private final int[] frameLines;

  /** Draws, per frame in order, a method then a line from {@code random}. */
  SyntheticStacks(Random random, int stacks, int depth, int methods) {
    this.depth = depth;
    this.frameMethods = new int[stacks * depth];
    this.frameLines = new int[stacks * depth];
    for (int frame = 0; frame < frameMethods.length; frame++) {
      frameMethods[frame] = random.nextInt(methods);
      frameLines[frame] = 10 + random.nextInt(200);
    }
  }

  @Override
  public int generation() {
    return 0;
  }

  @Override
  public int stackLength(int stack) {
    return depth;
  }

  @Override
  public int frame(int stack, int position) {
    return stack * depth + position;
  }

  @Override
  public int frameMethod(int frame) {
    return frameMethods[frame];
  }

  @Override
  public int frameLine(int frame) {
    return frameLines[frame];
  }

  @Override
  public String className(int method) {
    return "com.example.service.Component" + (method % 50);
  }

  @Override
  public String methodName(int method) {
    return "method" + method;
  }

  @Override
  public String methodDescriptor(int method) {
    return "()V";
  }
}
