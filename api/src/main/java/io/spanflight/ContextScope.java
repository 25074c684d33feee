package io.spanflight;

/**
 * An installed {@link SpanflightContext}; closing it restores the context that was current
 * before. Use it in try-with-resources, on the thread that installed it. Closing never throws.
 */
public interface ContextScope extends AutoCloseable {
  @Override
  void close();
}
