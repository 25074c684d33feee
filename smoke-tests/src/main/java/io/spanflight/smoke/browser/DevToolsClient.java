package io.spanflight.smoke.browser;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A Chrome DevTools protocol client over the JDK's WebSocket: {@link #call} sends a command and
 * waits for its result, {@link #onEvent} receives events ({@code Runtime.consoleAPICalled},
 * {@code Log.entryAdded}, ...). Connected to one page target.
 */
public final class DevToolsClient implements AutoCloseable {
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

  /** A protocol event: its method name and parameters. */
  public record Event(String method, Map<String, Object> params) {}

  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
  private final List<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
  private final WebSocket socket;

  private DevToolsClient(URI webSocketUrl) {
    this.socket = HttpClient.newHttpClient().newWebSocketBuilder()
        .connectTimeout(Duration.ofSeconds(10))
        .buildAsync(webSocketUrl, new Listener())
        .join();
  }

  public static DevToolsClient connect(URI webSocketUrl) {
    return new DevToolsClient(webSocketUrl);
  }

  public void onEvent(Consumer<Event> listener) {
    listeners.add(listener);
  }

  /** Sends {@code method} with {@code paramsJson} (a JSON object) and returns its result. */
  public Map<String, Object> call(String method, String paramsJson) {
    int id = ids.incrementAndGet();
    CompletableFuture<Map<String, Object>> result = new CompletableFuture<>();
    pending.put(id, result);
    String message = "{\"id\":" + id + ",\"method\":" + Json.quote(method) + ",\"params\":" + paramsJson + "}";
    socket.sendText(message, true).join();
    try {
      return result.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + method, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(method + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(method + " got no answer within " + CALL_TIMEOUT, e);
    } finally {
      pending.remove(id);
    }
  }

  public Map<String, Object> call(String method) {
    return call(method, "{}");
  }

  /**
   * Evaluates {@code expression} in the page (awaiting a promise) and returns its value as JSON
   * would carry it; a thrown exception fails with the page's message.
   */
  public Object evaluate(String expression) {
    Map<String, Object> result = call("Runtime.evaluate", "{\"expression\":" + Json.quote(expression)
        + ",\"returnByValue\":true,\"awaitPromise\":true}");
    if (result.containsKey("exceptionDetails")) {
      throw new IllegalStateException("page threw evaluating " + expression + ": " + result.get("exceptionDetails"));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> value = (Map<String, Object>) result.get("result");
    return value.get("value");
  }

  @Override
  public void close() {
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder buffer = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      buffer.append(data);
      if (last) {
        String text = buffer.toString();
        buffer.setLength(0);
        dispatch(text);
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      pending.values().forEach(p -> p.completeExceptionally(error));
    }

    @SuppressWarnings("unchecked")
    private void dispatch(String text) {
      Map<String, Object> message = (Map<String, Object>) Json.parse(text);
      Object id = message.get("id");
      if (id != null) {
        CompletableFuture<Map<String, Object>> result = pending.get(((Number) id).intValue());
        if (result != null) {
          if (message.containsKey("error")) {
            result.completeExceptionally(new IllegalStateException(String.valueOf(message.get("error"))));
          } else {
            result.complete((Map<String, Object>) message.get("result"));
          }
        }
      } else if (message.get("method") != null) {
        Event event = new Event((String) message.get("method"),
            (Map<String, Object>) message.getOrDefault("params", Map.of()));
        listeners.forEach(listener -> listener.accept(event));
      }
    }
  }
}
