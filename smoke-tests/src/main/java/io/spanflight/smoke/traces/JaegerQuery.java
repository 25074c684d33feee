package io.spanflight.smoke.traces;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Jaeger's HTTP query API (v3), as far as the smoke tests read it: {@code GET
 * /api/v3/traces/{traceId}}, whose answer is OTLP/JSON traces wrapped in {@code {"result": ...}}
 * (404 while Jaeger holds no span of the trace). Answers over {@link #MAX_ANSWER_BYTES} fail
 * rather than being read whole. Spans arrive asynchronously, so {@link #awaitTrace} polls.
 */
public final class JaegerQuery {
  /** The largest answer read: a trace of the smoke tests is a few KB; a runaway one fails. */
  public static final int MAX_ANSWER_BYTES = 8 << 20;
  private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");
  private static final Duration POLL = Duration.ofMillis(200);

  private final URI base;
  private final Supplier<String> context;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * @param base the query API's base URL ({@code http://127.0.0.1:16686})
   * @param context what failure messages add (the server's log tail, say)
   */
  public JaegerQuery(URI base, Supplier<String> context) {
    this.base = base;
    this.context = context;
  }

  /** The trace as Jaeger holds it now, or empty if it holds none of its spans (404). */
  public Optional<StoredTrace> trace(String traceId) throws IOException, InterruptedException {
    if (!TRACE_ID.matcher(traceId).matches()) {
      throw new IllegalArgumentException("a trace id is 32 lowercase hex digits, not '" + traceId + "'");
    }
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/api/v3/traces/" + traceId))
        .timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    String body;
    try (InputStream in = response.body()) {
      byte[] bytes = in.readNBytes(MAX_ANSWER_BYTES + 1);
      if (bytes.length > MAX_ANSWER_BYTES) {
        throw new IllegalStateException("Jaeger's answer for trace " + traceId + " is over " + MAX_ANSWER_BYTES
            + " bytes; not read");
      }
      body = new String(bytes, StandardCharsets.UTF_8);
    }
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    if (response.statusCode() != 200) {
      throw new IllegalStateException("GET " + request.uri() + ": HTTP " + response.statusCode() + ": "
          + body.substring(0, Math.min(body.length(), 500)));
    }
    List<StoredSpan> spans = OtlpJsonSpans.parse(body);
    List<StoredSpan> foreign = spans.stream().filter(span -> !span.traceId().equals(traceId)).toList();
    if (!foreign.isEmpty()) {
      throw new IllegalStateException("Jaeger answered trace " + traceId + " with spans of another trace: "
          + foreign.get(0).describe() + " in trace " + foreign.get(0).traceId());
    }
    return Optional.of(new StoredTrace(traceId, spans));
  }

  /**
   * Polls until Jaeger holds trace {@code traceId} and {@code complete} accepts it (all the spans a
   * test expects have arrived); fails after {@code timeout} with {@code what}, the last answer and
   * the context.
   */
  public StoredTrace awaitTrace(String traceId, Predicate<StoredTrace> complete, String what, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Optional<StoredTrace> last = trace(traceId);
    while (last.isEmpty() || !complete.test(last.get())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Jaeger did not hold trace " + traceId + " with " + what + " within " + timeout
            + "; its last answer: " + last.map(StoredTrace::describe).orElse("no such trace (404)")
            + "\n" + context.get());
      }
      Thread.sleep(POLL.toMillis());
      last = trace(traceId);
    }
    return last.get();
  }
}
